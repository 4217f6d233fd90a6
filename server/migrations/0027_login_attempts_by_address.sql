-- Sign-in attempts are now counted per address and per account-and-address, never per account
-- alone (docs/security-signin.md); `ip` holds the counted address (an IPv6 /64 as `a:b:c:d::/64`).
-- The cleanup of old rows looks them up by time.
DROP INDEX IF EXISTS login_failures_email_idx;
CREATE INDEX login_failures_at_idx ON login_failures (at);
