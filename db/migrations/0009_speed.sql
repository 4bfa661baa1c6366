-- Issue #11 (speed): partial indexes for the dispatcher's recovery scans. Filled in by the send-path work.
select 1;
