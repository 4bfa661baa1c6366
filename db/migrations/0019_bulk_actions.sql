-- Reserved for issue #13 (bulk_actions); filled in by that work, or left as a no-op.
select 1;
