-- KEYS: index
-- ARGV: score, sessionId, ttlMs
-- Reserves a session id in its user's index (a sorted set scored by creation time, score in epoch millis)
-- and refreshes the index's expiry, in one round trip: ZADD NX, PEXPIRE, ZCARD. Reply: {1 if the id was new else 0, members}.
local added = redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return { added, redis.call('ZCARD', KEYS[1]) }
