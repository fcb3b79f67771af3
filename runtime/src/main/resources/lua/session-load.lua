-- KEYS: state, plans
-- ARGV: latestPlans
-- Reads a session in one round trip. latestPlans: how many of the newest plan versions to read (-1: all).
-- Returns the state hash's fields and values, then p:<n> and the body of the latest plan versions.
local state, plans = KEYS[1], KEYS[2]
local reply = redis.call('HGETALL', state)
if #reply == 0 then return reply end
local head = redis.call('HMGET', state, 'planSeq', 'pmap')
local seq, latest = tonumber(head[1] or '0'), tonumber(ARGV[1])
return plan_bodies(plans, head[2], latest < 0 and 1 or math.max(1, seq - latest + 1), seq, reply)
