"""The game store's two writing scripts — creating a game (:data:`CREATE_LUA`) and committing a change to
it (:data:`COMMIT_LUA`: the compare-and-set of every move, :mod:`ginrummy.store.games`) — and the named
arguments they share.

Their ARGV is the fields of :data:`SCRIPT_FIELDS`, in that order, then the events, the finished hands'
``(number, record)`` pairs and the outbox's ``(field, record)`` pairs, as many as the counts say. It is
written in one place (:meth:`ginrummy.store.games.GameStore._script_args`) and read by name
(:data:`ARGS_LUA`: ``args.expected_version``, ``args.events``, ``args.hands``, ``args.outbox``, …), never
by position. Their KEYS are the game's state, events, hands, idempotency record, outbox and idempotency
set, named the same way.
"""

from __future__ import annotations

SCRIPT_FIELDS = (
    "idempotent",  # "1": with an idempotency record; "0": without
    "expected_version",  # the version the change was made from (a creation's: 0)
    "doc",  # the new state
    "ttl",  # seconds every key lives from now; 0: they keep their expiry
    "events_maxlen",  # the events a game keeps
    "hands_kept",  # the finished hands a game keeps
    "idempotency_record",  # the packed answer of the request ("" without a record)
    "idempotency_ttl",
    "event_count",
    "hand_count",
    "outbox_count",
)

# One table constructor and three plain loops: what naming the arguments costs a commit, a few table slots.
ARGS_LUA = (
    "\nlocal args = {"
    + ", ".join(f"{name} = ARGV[{number}]" for number, name in enumerate(SCRIPT_FIELDS, start=1))
    + """}
local taken = """
    + str(len(SCRIPT_FIELDS))
    + """
local events, hands, outbox = {}, {}, {}
for j = 1, tonumber(args.event_count) do events[j] = ARGV[taken + j] end
taken = taken + #events
for j = 1, 2 * tonumber(args.hand_count) do hands[j] = ARGV[taken + j] end
taken = taken + #hands
for j = 1, 2 * tonumber(args.outbox_count) do outbox[j] = ARGV[taken + j] end
args.events, args.hands, args.outbox = events, hands, outbox
local state_key, events_key, hands_key = KEYS[1], KEYS[2], KEYS[3]
local idempotency_key, outbox_key, idempotency_set_key = KEYS[4], KEYS[5], KEYS[6]
local idempotent = args.idempotent == '1'
"""
)

# Both return {status, value}: 1 = done (value: the new version), 0 = stale (value: the current version,
# or -1 when the game does not exist), 2 = the idempotency key was already used (value: the stored
# record).
COMMIT_LUA = (
    ARGS_LUA
    + """
local cur = redis.call('GET', state_key)
if not cur then return {0, -1} end
if idempotent and redis.call('EXISTS', idempotency_key) == 1 then
  return {2, redis.call('GET', idempotency_key)}
end
local version = tonumber(string.match(cur, '^(%d+)\\n'))
if version ~= tonumber(args.expected_version) then return {0, version} end
version = version + 1
local ttl = tonumber(args.ttl)
if ttl > 0 then
  redis.call('SET', state_key, version .. '\\n' .. args.doc, 'EX', ttl)
else
  redis.call('SET', state_key, version .. '\\n' .. args.doc, 'KEEPTTL')
end
for j, event in ipairs(args.events) do
  redis.call('RPUSH', events_key, version .. '-' .. j .. '\t' .. event)
end
if #args.events > 0 then redis.call('LTRIM', events_key, -tonumber(args.events_maxlen), -1) end
local kept = tonumber(args.hands_kept)
for j = 1, #args.hands, 2 do
  local number = tonumber(args.hands[j])
  redis.call('HSET', hands_key, number, args.hands[j + 1])
  if number > kept then redis.call('HDEL', hands_key, number - kept) end
end
if idempotent then
  redis.call('SET', idempotency_key, args.idempotency_record, 'EX', tonumber(args.idempotency_ttl))
  redis.call('SADD', idempotency_set_key, idempotency_key)
  if ttl > 0 then redis.call('EXPIRE', idempotency_set_key, ttl) end
end
for j = 1, #args.outbox, 2 do
  redis.call('HSET', outbox_key, args.outbox[j], args.outbox[j + 1])
end
if ttl > 0 then
  redis.call('EXPIRE', events_key, ttl)
  redis.call('EXPIRE', hands_key, ttl)
end
redis.call('PUBLISH', string.sub(state_key, 1, -2) .. 'n', version)
return {1, version}
"""
)

CREATE_LUA = (
    ARGS_LUA
    + """
if redis.call('EXISTS', state_key) == 1 then
  if idempotent and redis.call('EXISTS', idempotency_key) == 1 then
    return {2, redis.call('GET', idempotency_key)}
  end
  return {0, -1}
end
local ttl = tonumber(args.ttl)
redis.call('SET', state_key, '1\\n' .. args.doc, 'EX', ttl)
for j, event in ipairs(args.events) do
  redis.call('RPUSH', events_key, '1-' .. j .. '\t' .. event)
end
if #args.events > 0 then
  redis.call('LTRIM', events_key, -tonumber(args.events_maxlen), -1)
  redis.call('EXPIRE', events_key, ttl)
end
if idempotent then
  redis.call('SET', idempotency_key, args.idempotency_record, 'EX', tonumber(args.idempotency_ttl))
  redis.call('SADD', idempotency_set_key, idempotency_key)
  redis.call('EXPIRE', idempotency_set_key, ttl)
end
for j = 1, #args.outbox, 2 do
  redis.call('HSET', outbox_key, args.outbox[j], args.outbox[j + 1])
end
return {1, 1}
"""
)
