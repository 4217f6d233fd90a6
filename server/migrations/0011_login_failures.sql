-- Failed sign-ins, kept in the database so the limit holds across restarts and instances.
CREATE TABLE login_failures (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  ip text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX login_failures_email_idx ON login_failures (email, at);
CREATE INDEX login_failures_ip_idx ON login_failures (ip, at);
