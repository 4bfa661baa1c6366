-- Reserved for issue #12 (guest_visibility); filled in by that work, or left as a no-op.
select 1;
