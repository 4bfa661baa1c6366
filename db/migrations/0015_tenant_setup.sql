-- Reserved for issue #13 (tenant_setup); filled in by that work, or left as a no-op.
select 1;
