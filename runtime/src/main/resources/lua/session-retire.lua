-- KEYS: state, snap, events, chat, trace, plans, idempotency, ended
-- ARGV: ttlMs
-- Clears a session that ended and was archived: deletes its keys and sets its ended marker for ttlMs, so
-- its id is not created again while its keys would have lived. Returns 1.
redis.call('DEL', unpack(KEYS, 1, #KEYS - 1))
redis.call('SET', KEYS[#KEYS], '1', 'PX', ARGV[1])
return 1
