-- Reserved for issue #13 (org_settings); filled in by that work, or left as a no-op.
select 1;
