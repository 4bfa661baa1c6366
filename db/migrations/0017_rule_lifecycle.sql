-- Reserved for issue #13 (rule_lifecycle); filled in by that work, or left as a no-op.
select 1;
