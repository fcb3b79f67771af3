-- Step traces outlive the session's Redis keys: "what was read, injected and written at step v"
-- stays answerable after the task ended.
alter table session_archive add column traces text; -- JSON array of StepTraces, oldest first; null when none
