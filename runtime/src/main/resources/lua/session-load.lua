-- KEYS: state, plans
-- ARGV: latestPlans, knownVersion, knownCreatedAt
-- Reads a session in one round trip. latestPlans: how many of the newest plan versions to read (-1: all);
-- knownVersion and knownCreatedAt are optional (both or neither).
-- Returns the state hash's fields and values, then p:<n> and the body of the latest plan versions;
-- or {'='} alone when the session is still at the known version (the caller holds that state), and
-- is the same session (created at the same time: not one deleted and created again under its id).
local state, plans = KEYS[1], KEYS[2]
if ARGV[2] then
  local known = redis.call('HMGET', state, 'version', 'createdAt')
  if known[1] == ARGV[2] and known[2] == ARGV[3] then return {'='} end
end
local reply = redis.call('HGETALL', state)
if #reply == 0 then return reply end
local head = redis.call('HMGET', state, 'planSeq', 'pmap')
local seq, latest = tonumber(head[1] or '0'), tonumber(ARGV[1])
return plan_bodies(plans, head[2], latest < 0 and 1 or math.max(1, seq - latest + 1), seq, reply)
