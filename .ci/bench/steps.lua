-- wrk script: atomic step writes spread round-robin over pre-created sessions.
-- Env: TOKEN (bearer token), IDS_FILE (one session id per line).
local ids = {}
local token = os.getenv("TOKEN")
for line in io.lines(os.getenv("IDS_FILE")) do ids[#ids + 1] = line end
local n = 0

request = function()
  n = n + 1
  local id = ids[(n % #ids) + 1]
  local body = '{"patch":{"putCollected":{"k' .. (n % 50) .. '":"v' .. n .. '"},"stepPointer":{"index":'
      .. n .. ',"name":"bench"}}}'
  return wrk.format("POST", "/v1/sessions/" .. id .. "/steps",
      {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, body)
end
