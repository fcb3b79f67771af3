-- Reads a session in one round trip. KEYS: state, plans. ARGV: latestPlans (-1: all).
-- Returns the state hash's fields and values, then the fields of the latest plan versions.
local state, plans = KEYS[1], KEYS[2]
local reply = redis.call('HGETALL', state)
if #reply == 0 then return reply end
local latest = tonumber(ARGV[1])
if latest < 0 then
  for _, v in ipairs(redis.call('HGETALL', plans)) do reply[#reply + 1] = v end
  return reply
end
local seq = tonumber(redis.call('HGET', state, 'planSeq') or '0')
for n = math.max(1, seq - latest + 1), seq do
  for _, prefix in ipairs({'p:', 'e:'}) do
    local value = redis.call('HGET', plans, prefix .. n)
    if value then
      reply[#reply + 1] = prefix .. n
      reply[#reply + 1] = value
    end
  end
end
return reply
