-- Undo of a session's promotion and the profile as of an instant (issue 35). An audit event that reverts another
-- names it (undoes); a RESTORE event, which makes a superseded fact ACTIVE again, keeps the valid_to the fact had
-- (prior_valid_to), so the profile as of an instant between the two leaves the fact out. Undo finds what it already
-- did by the session its events name.
alter table profile_event add column undoes bigint;
alter table profile_event add column prior_valid_to timestamptz;

create index profile_event_user_session on profile_event (user_id, session_id);
