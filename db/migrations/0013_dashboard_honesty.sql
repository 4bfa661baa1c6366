-- Reserved for issue #12 (dashboard_honesty); filled in by that work, or left as a no-op.
select 1;
