-- KEYS: state, snap
-- ARGV: bytes
-- Records that the user's budget granted the session `bytes` more. Returns {1}, or {0} when the session is
-- gone (nothing recorded).
if redis.call('EXISTS', KEYS[1]) == 0 then return {0} end
redis.call('HINCRBY', KEYS[2], 'granted', ARGV[1])
return {1}
