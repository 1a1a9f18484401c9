"""Tools run by hand or by make: the container test's scripts (standard library only) and the
levels' calibration (``make calibrate``); importable by the tests."""
