-- Issue #11 (metrics): worker metric snapshots. Filled in by the metrics work.
select 1;
