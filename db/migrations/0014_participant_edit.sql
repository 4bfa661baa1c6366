-- Reserved for issue #12 (participant_edit); filled in by that work, or left as a no-op.
select 1;
