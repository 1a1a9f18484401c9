-- Cycle through the requests of a file, one per line: METHOD<TAB>PATH<TAB>BODY (BODY may be empty),
-- perhaps followed by <TAB>Name: value, one header sent with the request.
-- The file is named by the environment variable BENCH_REQUESTS; each thread starts at a random line.
-- done() prints one line, BENCH {json}, with the counts and latency percentiles in microseconds.

local requests = {}
local position = 0

local function load(path)
  local list = {}
  for line in io.lines(path) do
    local method, target, body, header = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t?(.*)$")
    local headers = {}
    local name, value = header:match("^([^:]+):%s*(.*)$")
    if name then
      headers[name] = value
    end
    if body ~= "" then
      headers["Content-Type"] = "application/json"
    else
      body = nil
    end
    list[#list + 1] = wrk.format(method, target, headers, body)
  end
  return list
end

function init(args)
  requests = load(os.getenv("BENCH_REQUESTS"))
  position = math.random(#requests)
end

function request()
  position = position % #requests + 1
  return requests[position]
end

function done(summary, latency, responses)
  io.write(string.format(
    'BENCH {"requests": %d, "seconds": %f, "errors": %d, "non2xx": %d, "p50_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, latency:percentile(50), latency:percentile(99), latency.max))
end
