-- Reserved for issue #12 (sign_in_limits); filled in by that work, or left as a no-op.
select 1;
