-- Reserved for issue #13 (accounts); filled in by that work, or left as a no-op.
select 1;
