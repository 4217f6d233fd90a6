-- drizzle-kit never writes extensions; trigram indexes for search need this one.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE app_settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE access_levels (
  id integer PRIMARY KEY,
  name text NOT NULL UNIQUE,
  sort_order integer NOT NULL UNIQUE,
  is_paid boolean NOT NULL DEFAULT false
);

CREATE TABLE clients (
  id bigserial PRIMARY KEY,
  first_name text,
  last_name text,
  email_address text,
  mb_client_id text,
  mb_site_id integer,
  -- the level the client has now (a sort_order of access_levels)
  vod_access_level integer REFERENCES access_levels (sort_order),
  -- the level their purchases give them, without any admin override
  purchase_access_level integer REFERENCES access_levels (sort_order),
  client_status text,
  first_login timestamptz,
  admin_updated_expiration timestamptz,
  -- the level an active admin override replaced, to fall back to when it ends
  admin_replaced_access_level integer REFERENCES access_levels (sort_order),
  revenue_cat_user_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX clients_email_idx ON clients (lower(email_address));
CREATE INDEX clients_mb_idx ON clients (mb_client_id, mb_site_id);

CREATE TABLE video_categories (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  sort_order integer NOT NULL DEFAULT 0
);

CREATE TABLE videos (
  id serial PRIMARY KEY,
  vimeo_video_id text UNIQUE,
  title text NOT NULL,
  description text,
  thumbnail_url text,
  duration integer NOT NULL DEFAULT 0,
  enabled boolean NOT NULL DEFAULT true,
  access_level_id integer NOT NULL DEFAULT 1 REFERENCES access_levels (id),
  category_id integer REFERENCES video_categories (id),
  instructor text,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX videos_category_idx ON videos (category_id);

CREATE TABLE video_views (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  viewed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX video_views_client_idx ON video_views (client_id, viewed_at DESC);
CREATE INDEX video_views_viewed_at_idx ON video_views (viewed_at);

CREATE TABLE favorites (
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  video_category_id integer NOT NULL DEFAULT 30,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, video_id)
);

CREATE TABLE contracts (
  pk bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  -- Mindbody's ClientContract.Id: this sale of the contract
  id bigint NOT NULL,
  -- Mindbody's ContractID: the contract template
  contract_id bigint,
  site_id integer,
  agreement_date timestamptz,
  autopay_status text,
  contract_name text,
  start_date timestamptz,
  end_date timestamptz,
  termination_date timestamptz,
  original_location_id integer,
  upcoming_autopay_events jsonb NOT NULL DEFAULT '[]'::jsonb,
  synced_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (client_id, id)
);

CREATE TABLE purchases (
  id bigserial PRIMARY KEY,
  client_id bigint REFERENCES clients (id) ON DELETE SET NULL,
  revenue_cat_user_id text,
  access_level_id integer REFERENCES access_levels (id),
  subscription_identifier text,
  upsell_source text,
  purchased_at timestamptz,
  expires_at timestamptz,
  subscription_status text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchases_client_idx ON purchases (client_id, purchased_at DESC);

CREATE TABLE debug_records (
  id bigserial PRIMARY KEY,
  client_id bigint REFERENCES clients (id) ON DELETE SET NULL,
  email text,
  mb_client_id text,
  app_access_level text,
  firebase_token_new text,
  firebase_token_current text,
  platform text,
  platform_version text,
  is_ipad boolean,
  screen_width real,
  screen_height real,
  device_width real,
  device_height real,
  ip text,
  app_version text,
  sent_at timestamptz,
  device_constants jsonb,
  network_info jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX debug_records_client_idx ON debug_records (client_id, sent_at DESC);

CREATE TABLE message_types (
  id integer PRIMARY KEY,
  title text NOT NULL,
  slug text NOT NULL UNIQUE
);

CREATE TABLE push_messages (
  id serial PRIMARY KEY,
  message_type integer NOT NULL REFERENCES message_types (id),
  title text NOT NULL DEFAULT '',
  message text NOT NULL,
  enabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_messages_type_idx ON push_messages (message_type, id);

CREATE TABLE staff_users (
  id serial PRIMARY KEY,
  email text NOT NULL,
  password_hash text,
  nickname text NOT NULL,
  picture text,
  oidc_subject text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz
);
CREATE UNIQUE INDEX staff_users_email_idx ON staff_users (lower(email));

CREATE TABLE sessions (
  -- SHA-256 of the cookie's token: a leaked table does not leak usable cookies
  id text PRIMARY KEY,
  staff_user_id integer NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ip text,
  user_agent text
);
CREATE INDEX sessions_staff_idx ON sessions (staff_user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

INSERT INTO access_levels (id, name, sort_order, is_paid) VALUES
  (1, 'VOD | FREE', 1, false),
  (2, 'VOD | BASIC', 2, true),
  (3, 'VOD | PREMIUM', 3, true);

INSERT INTO message_types (id, title, slug) VALUES
  (1, 'High Five', 'high-fives'),
  (2, 'Missed Class', 'missed-class'),
  (3, '#notetoself', 'notetoself'),
  (4, 'Monday Morning', 'monday-morning'),
  (5, 'Cancelled Class', 'cancelled-class'),
  (6, 'Extended Absense', 'extended-absense');
