-- KEYS: state, plans
-- ARGV: from, limit
-- ERRORS: -4 missing
-- Reads a page of plan versions, from plan version `from` on, at most `limit`.
-- Returns {planCount, {p:<n>, body, e:<n>, evaluation …}} or {-4} when the session is missing.
local state, plans = KEYS[1], KEYS[2]
local head = redis.call('HMGET', state, 'version', 'planSeq', 'pmap')
if not head[1] then return {-4} end
local seq = tonumber(head[2] or '0')
local from = math.max(1, tonumber(ARGV[1]))
local last = math.min(seq, from + tonumber(ARGV[2]) - 1)
local fields = plan_bodies(plans, head[3], from, last, {})
for n = from, last do
  local evaluation = redis.call('HGET', state, 'e:' .. n)
  if evaluation then
    fields[#fields + 1] = 'e:' .. n
    fields[#fields + 1] = evaluation
  end
end
return {seq, fields}
