"""Scripts run by hand or by the container test, standard library only; importable by the tests."""
