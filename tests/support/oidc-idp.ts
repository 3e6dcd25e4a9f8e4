import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider for the tests: `oidc-provider` (the certified Node
 * implementation) on loopback over HTTP, with one confidential client (client_secret_basic,
 * PKCE required), an RSA signing key of its own (its JWKS is what the app verifies ID tokens
 * against) and a few accounts. Its sign-in page asks only for an account's login, which stands
 * for whatever the IdP would check; the account says which `amr` its ID token carries.
 */
export type IdpAccount = { login: string; email: string; emailVerified: boolean; name: string; amr: string[] };

export type TestIdp = { issuer: string; close(): Promise<void> };

export async function startTestIdp(options: {
  port: number;
  client: { id: string; secret: string; redirectUri: string };
  accounts: IdpAccount[];
}): Promise<TestIdp> {
  // Listening first, so that port 0 (any free port) gives the issuer its address.
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const byLogin = new Map(options.accounts.map((a) => [a.login, a]));
  const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.client.id,
        client_secret: options.client.secret,
        redirect_uris: [options.client.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: "test-idp-key", use: "sig", alg: "RS256" }] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    pkce: { required: () => true },
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    // `amr` with the openid scope: the provider puts a claim in the ID token only when a scope (or the claims parameter) asks for it.
    claims: { openid: ["sub", "amr", "auth_time"], email: ["email", "email_verified"], profile: ["name"] },
    // The profile and email claims in the ID token itself, as Google's and Okta's carry them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = byLogin.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: account.emailVerified, name: account.name }),
      };
    },
  });

  const handle = provider.callback();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => void serve(provider, req, res));
  async function serve(idp: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url?.split("?")[0] ?? "");
    if (!match) return void handle(req, res);
    try {
      const details = await idp.interactionDetails(req, res);
      if (req.method === "GET") return page(res, details.uid);
      const login = new URLSearchParams(await bodyOf(req)).get("login") ?? "";
      const account = byLogin.get(login);
      if (!account) return page(res, details.uid, "Unknown login.");
      const grant = new idp.Grant({ accountId: login, clientId: String(details.params.client_id) });
      grant.addOIDCScope("openid email profile");
      const grantId = await grant.save();
      await idp.interactionFinished(
        req,
        res,
        { login: { accountId: login, amr: account.amr }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  }
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function page(res: ServerResponse, uid: string, error?: string): void {
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.end(`<!doctype html><html lang="en"><head><title>Test IdP</title></head><body>
<h1>Test identity provider</h1>${error ? `<p role="alert">${error}</p>` : ""}
<form method="post" action="/interaction/${uid}/login">
<label>Login <input name="login" autocomplete="off"></label>
<button type="submit">Continue</button>
</form></body></html>`);
}

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

/**
 * A browser's visit to the IdP without a browser (integration tests): from the app's
 * authorization URL through the IdP's sign-in page as `login`, cookies kept, to the redirect
 * back to the app, whose address (the callback with `code` and `state`) is returned.
 */
export async function visitIdp(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const go = async (url: string, init: { method?: string; body?: string } = {}) => {
    const res = await fetch(url, {
      method: init.method ?? "GET",
      body: init.body,
      redirect: "manual",
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const pair = cookie.split(";")[0]!;
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    await res.arrayBuffer();
    return res.status >= 300 && res.status < 400 ? new URL(res.headers.get("location")!, url) : null;
  };
  const interaction = await go(authorizationUrl);
  if (!interaction) throw new Error("The IdP did not send the browser to its sign-in page.");
  await go(interaction.toString());
  let next = await go(`${interaction}/login`, { method: "POST", body: new URLSearchParams({ login }).toString() });
  const origin = new URL(authorizationUrl).origin;
  while (next && next.origin === origin) next = await go(next.toString());
  if (!next) throw new Error("The IdP did not send the browser back.");
  return next;
}
