-- The fleet server's access rules, on top of tools/store/schema.sql on PostgreSQL (tools/vkbserver.py applies
-- both; it runs this file again after every migration, so every statement here can run twice).
--
-- Each node submits as a role of its own, named in the node table with the one host it may write for. A node may
-- read everything, may add rows only for its own host (row-level security on the host column, and on the run and
-- device that a result or health row names), and may change or remove nothing: no UPDATE or DELETE is granted, so
-- no row another host stored can be overwritten. A run is stored once: run.submission is unique.

CREATE TABLE IF NOT EXISTS node (
    role     TEXT PRIMARY KEY,           -- the PostgreSQL role the node logs in as
    hostname TEXT NOT NULL               -- the machine.hostname it may write for
);

CREATE OR REPLACE FUNCTION vkb_node_host() RETURNS TEXT LANGUAGE sql STABLE AS
    $$ SELECT hostname FROM node WHERE role = current_user $$;

CREATE OR REPLACE FUNCTION vkb_own_machine(m BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS
    $$ SELECT EXISTS (SELECT 1 FROM machine WHERE id = m AND hostname = vkb_node_host()) $$;

CREATE OR REPLACE FUNCTION vkb_own_run(r BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS
    $$ SELECT EXISTS (SELECT 1 FROM run JOIN machine ON machine.id = run.machine_id
                      WHERE run.id = r AND machine.hostname = vkb_node_host()) $$;

CREATE OR REPLACE FUNCTION vkb_own_device(d BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS
    $$ SELECT d IS NULL OR EXISTS (SELECT 1 FROM device JOIN machine ON machine.id = device.machine_id
                                   WHERE device.id = d AND machine.hostname = vkb_node_host()) $$;

ALTER TABLE machine ENABLE ROW LEVEL SECURITY;
ALTER TABLE device ENABLE ROW LEVEL SECURITY;
ALTER TABLE build ENABLE ROW LEVEL SECURITY;
ALTER TABLE run ENABLE ROW LEVEL SECURITY;
ALTER TABLE result ENABLE ROW LEVEL SECURITY;
ALTER TABLE health ENABLE ROW LEVEL SECURITY;

DROP POLICY IF EXISTS vkb_read ON machine;
CREATE POLICY vkb_read ON machine FOR SELECT USING (true);
DROP POLICY IF EXISTS vkb_add ON machine;
CREATE POLICY vkb_add ON machine FOR INSERT WITH CHECK (hostname = vkb_node_host());

DROP POLICY IF EXISTS vkb_read ON device;
CREATE POLICY vkb_read ON device FOR SELECT USING (true);
DROP POLICY IF EXISTS vkb_add ON device;
CREATE POLICY vkb_add ON device FOR INSERT WITH CHECK (vkb_own_machine(machine_id));

DROP POLICY IF EXISTS vkb_read ON build;
CREATE POLICY vkb_read ON build FOR SELECT USING (true);
DROP POLICY IF EXISTS vkb_add ON build;
CREATE POLICY vkb_add ON build FOR INSERT WITH CHECK (true);

DROP POLICY IF EXISTS vkb_read ON run;
CREATE POLICY vkb_read ON run FOR SELECT USING (true);
DROP POLICY IF EXISTS vkb_add ON run;
CREATE POLICY vkb_add ON run FOR INSERT WITH CHECK (vkb_own_machine(machine_id));

DROP POLICY IF EXISTS vkb_read ON result;
CREATE POLICY vkb_read ON result FOR SELECT USING (true);
DROP POLICY IF EXISTS vkb_add ON result;
CREATE POLICY vkb_add ON result FOR INSERT WITH CHECK (vkb_own_run(run_id) AND vkb_own_device(device_id));

DROP POLICY IF EXISTS vkb_read ON health;
CREATE POLICY vkb_read ON health FOR SELECT USING (true);
DROP POLICY IF EXISTS vkb_add ON health;
CREATE POLICY vkb_add ON health FOR INSERT WITH CHECK (vkb_own_run(run_id) AND vkb_own_device(device_id));

DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vkb_node') THEN
        CREATE ROLE vkb_node NOLOGIN;
    END IF;
END $$;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM vkb_node;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO vkb_node;
GRANT INSERT ON machine, device, build, run, result, health TO vkb_node;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO vkb_node;
