-- Member administration (issue #22 item 3). The audit log names who acted (actor_id: the admin,
-- or NULL when the member acted on their own account) and is filtered by actor, event, member
-- and time; an SMS code sent to enrol a phone remembers that phone until the code is used.
ALTER TABLE identity_audit ADD COLUMN actor_id TEXT;
CREATE INDEX identity_audit_actor ON identity_audit(actor_id, at);
CREATE INDEX identity_audit_member ON identity_audit(member_id, at);
CREATE INDEX identity_audit_event ON identity_audit(event, at);
ALTER TABLE identity_otp_codes ADD COLUMN phone TEXT;
CREATE INDEX identity_members_password ON identity_members(password_id);
