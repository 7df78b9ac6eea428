import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseEnv } from '../../app/lib/env.server';

/**
 * The deployment recipe (deploy/compose.yaml, deploy/.env.example, the Dockerfile) read as
 * Compose and Docker would: every required variable is in the example file, the app's
 * environment passes the app's own validation, and the image runs plain JavaScript as a
 * non-root user. (Docker itself cannot run here.)
 */
const composeText = fs.readFileSync('deploy/compose.yaml', 'utf8');
const envExample = Object.fromEntries(
  fs
    .readFileSync('deploy/.env.example', 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);
/** Variables a coming issue adds; the recipe passes them already (none left). */
const COMING = new Set<string>([]);

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}; $$ is a literal $. */
function interpolate(text: string, env: Record<string, string>): string {
  return text
    .replace(/\$\{([A-Z_]+)(?:(:-|:\?)([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
      const value = env[name] ?? '';
      if (op === ':-') return value || arg!;
      if (op === ':?' && !value) throw new Error(`missing ${name}: ${arg}`);
      return value;
    })
    .replace(/\$\$/g, '$');
}

const required = [...composeText.matchAll(/\$\{([A-Z_]+):\?/g)].map((match) => match[1]);

/** The example file as an operator fills it: every required value that is empty there is set. */
function filledEnv(): Record<string, string> {
  const fill = (name: string) => (name === 'SMTP_URL' ? 'smtp://mail.example.com:587' : 'a'.repeat(64));
  return Object.fromEntries(Object.entries(envExample).map(([name, value]) => [name, value || (required.includes(name) ? fill(name) : '')]));
}

type Compose = {
  services: Record<string, { environment?: Record<string, string>; deploy?: { replicas?: number | string }; build?: unknown; read_only?: boolean }>;
};

describe('deploy/compose.yaml', () => {
  it('names every variable it requires in deploy/.env.example', () => {
    expect(required.length).toBeGreaterThan(5);
    for (const name of required) expect(Object.keys(envExample)).toContain(name);
    // And refuses to start without them.
    expect(() => interpolate(composeText, { ...filledEnv(), SESSION_SECRET: '' })).toThrow(/missing SESSION_SECRET/);
  });

  it('gives the app an environment its own validation accepts, with everything several instances must share', () => {
    const compose = parse(interpolate(composeText, filledEnv())) as Compose;
    const app = compose.services.app;
    expect(Number(app.deploy?.replicas)).toBeGreaterThanOrEqual(2);
    expect(app.build).toBeDefined();
    expect(app.read_only).toBe(true);
    const environment = Object.fromEntries(Object.entries(app.environment!).map(([name, value]) => [name, String(value ?? '')]));
    const env = parseEnv(environment);
    expect(env.NODE_ENV).toBe('production');
    expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/druckpreis:[^@]+@postgres:5432\/druckpreis$/);
    expect(env.TRUST_PROXY).toBe('1');
    expect(env.SESSION_SECRET).toBeTruthy();
    expect(env.S3_BUCKET).toBeTruthy();
    expect(env.S3_ENDPOINT).toBe('http://minio:9000');
    expect(env.S3_PUBLIC_ENDPOINT).toBe(`https://s3.${envExample.DOMAIN}`);
    expect(env.APP_URL).toBe(`https://${envExample.DOMAIN}`);
    expect(env.SMTP_URL).toBeTruthy();
    // Only variables the app reads and documents in .env.example (unknown ones would be silently ignored).
    const known = new Set([...fs.readFileSync('.env.example', 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));
    for (const name of Object.keys(env)) expect(known).toContain(name);
    expect(Object.keys(environment).filter((name) => !known.has(name) && !COMING.has(name))).toEqual([]);
  });

  it('puts Caddy in front of every app replica and of the S3 API', () => {
    const caddyfile = fs.readFileSync('deploy/Caddyfile', 'utf8');
    expect(caddyfile).toMatch(/dynamic a \{\s*name app\s*port 3000/);
    expect(caddyfile).toMatch(/s3\.\{\$DOMAIN\} \{[\s\S]*reverse_proxy minio:9000/);
    const compose = parse(interpolate(composeText, filledEnv())) as Compose;
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'caddy', 'minio', 'minio-init', 'postgres']);
  });
});

describe('Dockerfile', () => {
  const dockerfile = fs.readFileSync('Dockerfile', 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('runs the compiled start script with node, as the node user, with a health check', () => {
    expect(finalStage).toMatch(/^CMD \["node", "build\/scripts\/start\.js"\]$/m);
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage).toMatch(/^HEALTHCHECK .*\/healthz/m);
    expect(finalStage).not.toMatch(/tsx/);
    // Sources and tests stay in the build stage.
    expect(finalStage).not.toMatch(/^COPY (--chown=\S+ )?(app|tests|scripts|prisma-free-migrations)\b/m);
  });

  it('ships production dependencies only and no local data', () => {
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies).not.toHaveProperty('tsx');
    const ignored = fs.readFileSync('.dockerignore', 'utf8').split('\n');
    for (const entry of ['.data', '.env', 'node_modules', 'build']) expect(ignored).toContain(entry);
  });
});
