-- Reserved for issue #13 (front_desk); filled in by that work, or left as a no-op.
select 1;
