-- Reserved for issue #13 (csv_import); filled in by that work, or left as a no-op.
select 1;
