-- Issue #12: sign-in limits keep their token buckets in rate_limits (keys 'signin:…'); full buckets are pruned
-- by TAT, so they get an index of their own (the provider send-rate rows are few and never pruned).
CREATE INDEX "rate_limits_signin_tat_idx" ON "rate_limits" USING btree ("tat") WHERE "key" LIKE 'signin:%';
