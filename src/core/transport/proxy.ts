/**
 * Which way a request with the key leaves this machine: through a forward proxy or directly.
 * One dispatcher for every call and download, chosen from (in this order):
 *   1. VS Code's `http.proxy` (the user's own value: a workspace must never route the key),
 *      with `http.noProxy`, `http.proxyStrictSSL` and `http.proxyAuthorization`;
 *   2. else the environment: HTTPS_PROXY / HTTP_PROXY and NO_PROXY (lower case first, as undici does).
 * The settings win per setting: a non-empty `http.noProxy` replaces NO_PROXY, it is not merged.
 *
 * Why it is safe for the key: every target is reached through a CONNECT tunnel (undici's
 * ProxyAgent with proxyTunnel), so the proxy's HTTP side sees `CONNECT host:port` and nothing
 * else; for https the bytes in the tunnel are TLS, so not the path, not the `api_key` header, not
 * the body. http targets are tunnelled too (without it undici sends them to the proxy as plain
 * proxy requests, key header included), but their bytes still cross the proxy unencrypted: that
 * is one more reason plain http is allowed only for loopback, and loopback targets (the sandbox
 * on 127.0.0.1) never go through a proxy at all.
 *
 * undici does the work (EnvHttpProxyAgent for the host matching, ProxyAgent for the tunnel);
 * this module only feeds them explicit values, so nothing is read from process.env behind our back,
 * and it turns proxy failures into messages that say it was the proxy.
 *
 * Pure core: no vscode import; src/vscode/base/connection.ts reads the settings and passes them here.
 */
import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { BadInputError, errorText } from '../errors';
import type * as DispatcherModule from './proxyDispatcher';
import { l10n } from '../l10n';

/** The environment variables that matter here (a copy of process.env will do). */
type ProxyEnv = Readonly<Record<string, string | undefined>>;

export interface ProxyOptions {
  /** `http.proxy` (user value); empty or undefined: the environment decides. */
  readonly proxy?: string;
  /** `http.proxyStrictSSL` (user value, default true): false accepts any certificate on proxied connections. */
  readonly strictSSL: boolean;
  /** `http.noProxy` (user value): hosts reached directly; empty: NO_PROXY from the environment. */
  readonly noProxy: readonly string[];
  /** `http.proxyAuthorization` (user value): sent as Proxy-Authorization on CONNECT; wins over credentials in the URL. */
  readonly proxyAuthorization?: string;
  readonly env: ProxyEnv;
  /** Extra trusted certificate authorities (PEM), for proxied and direct TLS alike. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /**
   * Send loopback targets through the proxy too. Only the tests set it, to run the sandbox and a
   * loopback https server through a loopback proxy; the extension never does.
   */
  readonly proxyLoopback?: boolean;
  /** How long the proxy has to answer CONNECT (default PROXY_TUNNEL_TIMEOUT_MS); tests shorten it. */
  readonly tunnelTimeoutMs?: number;
}

/**
 * How long a proxy has to open a tunnel (answer CONNECT). Without a bound, undici waits five minutes
 * for a proxy that takes the connection and never answers, and it reconnects without end to one that
 * closes it (nodejs/undici#3897, still so in the undici 7.30 we ship): the call's own timeout and
 * cancel never reached that phase, so a paid submit could hang forever.
 */
const PROXY_TUNNEL_TIMEOUT_MS = 30_000;

/** What was chosen, for the log: the proxy URL has no password in it. */
export interface ProxyChoice {
  readonly dispatcher: DispatcherModule.ProxyDispatcher;
  /** 'settings' (http.proxy), 'env' (HTTPS_PROXY/HTTP_PROXY) or 'none'. */
  readonly source: 'settings' | 'env' | 'none';
  /** One line for the log, passwords hidden. */
  readonly summary: string;
}

/**
 * A proxy URL as it may be shown: scheme, user name and host, the password replaced by ***.
 * Whatever the text, URL or not: everything before the LAST `@` is taken as credentials, so an
 * unencoded password holding `/`, `:` or `@` (`http://u:pa/ss@host:3128`, which a URL parser
 * reads as host `u`, or refuses) is never shown; a user part that is not a plain name is hidden too.
 */
export function showProxyUrl(raw: string): string {
  const text = raw.trim();
  const scheme = (/^[a-z][a-z0-9+.-]*:\/\//iu.exec(text)?.[0] ?? 'http://').toLowerCase();
  const rest = /^[a-z][a-z0-9+.-]*:\/\//iu.test(text) ? text.slice(scheme.length) : text;
  const at = rest.lastIndexOf('@');
  const hostPart = (at < 0 ? rest : rest.slice(at + 1)).split(/[/?#\\]/u)[0] ?? '';
  let host = hostPart;
  try {
    host = new URL(`${scheme}${hostPart}`).host || hostPart;
  } catch {
    // Shown as written: it holds no credentials.
  }
  if (at < 0) return `${scheme}${host}`;
  const userinfo = rest.slice(0, at);
  const colon = userinfo.indexOf(':');
  const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
  const plainUser = /^[\w.%~+-]+$/u.test(user);
  return `${scheme}${plainUser ? `${user}${colon < 0 ? '' : ':***'}` : '***'}@${host}`;
}

/** `proxy:3128` (a common form in HTTPS_PROXY) means `http://proxy:3128`. */
function withScheme(raw: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//iu.test(raw) ? raw : `http://${raw}`;
}

function parseProxy(raw: string, from: string): URL {
  let u: URL;
  try {
    u = new URL(withScheme(raw.trim()));
  } catch {
    throw new BadInputError({ source: 'client', problems: [l10n.t('The proxy in {0} (“{1}”) is not a valid URL: use http://host:port', from, showProxyUrl(raw))] });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new BadInputError({
      source: 'client',
      problems: [l10n.t('The proxy in {0} (“{1}”) must start with http:// or https:// ({2} proxies are not supported)', from, showProxyUrl(raw), u.protocol)],
    });
  }
  return u;
}


/**
 * The undici side (src/core/transport/proxyDispatcher.ts), required when the first dispatcher is
 * built, the first request's step: loading undici with the features cost 0.2–1.4 s (issue 34 item 1).
 * Until then no dispatcher of ours exists, so a failure cannot have been the proxy's.
 */
let dispatcherModule: typeof DispatcherModule | undefined;
function loadDispatcherModule(): typeof DispatcherModule {
  // A require() esbuild keeps in place, so undici is read only now (an import would run at module load).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (dispatcherModule ??= require('./proxyDispatcher') as typeof DispatcherModule);
}

/**
 * The dispatcher for every request of the extension, from the user's http.* settings and the
 * environment. Throws a BadInputError (nothing sent, nothing charged) for a proxy URL that is
 * not http(s)://host:port, rather than silently going direct.
 */
export function proxyDispatcherFor(o: ProxyOptions): ProxyChoice {
  const e = o.env;
  const fromSettings = o.proxy?.trim() ? o.proxy.trim() : undefined;
  const envHttp = e.http_proxy ?? e.HTTP_PROXY ?? '';
  // As undici: https targets use HTTPS_PROXY, or HTTP_PROXY when only that one is set.
  const envHttps = e.https_proxy ?? e.HTTPS_PROXY ?? '';
  const noProxyList = o.noProxy.map((h) => h.trim()).filter((h) => h !== '');
  const noProxy = noProxyList.length > 0 ? noProxyList.join(',') : (e.no_proxy ?? e.NO_PROXY ?? '');

  let httpProxy = '';
  let httpsProxy = '';
  let source: ProxyChoice['source'] = 'none';
  if (fromSettings) {
    httpProxy = httpsProxy = parseProxy(fromSettings, 'http.proxy').href;
    source = 'settings';
  } else if (envHttp || envHttps) {
    if (envHttp) httpProxy = parseProxy(envHttp, e.http_proxy !== undefined ? 'http_proxy' : 'HTTP_PROXY').href;
    httpsProxy = envHttps ? parseProxy(envHttps, e.https_proxy !== undefined ? 'https_proxy' : 'HTTPS_PROXY').href : httpProxy;
    source = 'env';
  }

  const proxyUrl = httpsProxy ? new URL(httpsProxy) : httpProxy ? new URL(httpProxy) : undefined;
  const dispatcher = loadDispatcherModule().buildDispatcher({
    ...o, source, httpProxy, httpsProxy, noProxy, proxyUrl,
    shownProxy: proxyUrl ? showProxyUrl(proxyUrl.href) : undefined,
    tunnelTimeoutMs: o.tunnelTimeoutMs ?? PROXY_TUNNEL_TIMEOUT_MS,
  });

  let summary: string;
  if (source === 'none') {
    summary = 'No proxy (http.proxy is not set, nor HTTPS_PROXY/HTTP_PROXY): requests go directly.';
  } else {
    const shown = [...new Set([httpsProxy, httpProxy].filter((p) => p !== '').map(showProxyUrl))].join(' (https), ');
    const from = source === 'settings' ? 'http.proxy' : 'the environment (HTTPS_PROXY/HTTP_PROXY)';
    summary =
      `Proxy ${shown} from ${from}, as a CONNECT tunnel (the proxy sees host and port only, never the key). ` +
      `Direct: loopback${noProxy ? `, ${noProxy}` : ''}.` +
      (o.strictSSL ? '' : ' http.proxyStrictSSL is off: certificates are not checked through the proxy, so an intercepting proxy could read the key.');
  }
  return { dispatcher, source, summary };
}

// ---- failures that were the proxy's ----

/** What a failure through the proxy means, or undefined when it was not the proxy's. */
interface ProxyFailure {
  /** For the error message: says it was the proxy, and what to check. */
  readonly detail: string;
  /** 'PROXY_AUTH' (407/403: retrying will not help), 'PROXY_TUNNEL' (other refusals), a ProxyTunnelError's code, or the network code. */
  readonly code: string;
  /** Always false: the request (and the key) never left, because the tunnel was never opened. */
  readonly sent: false;
}

function errorCode(e: unknown): string | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const c = (e as { code?: unknown }).code;
  return typeof c === 'string' ? c : undefined;
}

/** Every error in a cause / AggregateError chain, outermost first. */
function chain(e: unknown): unknown[] {
  const out: unknown[] = [];
  const todo: unknown[] = [e];
  while (todo.length > 0 && out.length < 10) {
    const x = todo.shift();
    if (!x || typeof x !== 'object' || out.includes(x)) continue;
    out.push(x);
    const { cause, errors } = x as { cause?: unknown; errors?: unknown };
    if (cause) todo.push(cause);
    if (Array.isArray(errors)) todo.push(...(errors as unknown[]));
  }
  return out;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  403: 'Forbidden',
  407: 'Proxy Authentication Required',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * Recognises a failure that happened at the proxy, before the tunnel to the API was open: the
 * proxy refused CONNECT (undici: "Proxy response (407) !== 200 when HTTP Tunneling"), or the
 * proxy itself could not be reached. In both cases the request was never written, so it was
 * not sent and not charged. `target` is the API's origin the request was for.
 */
export function proxyFailure(e: unknown, dispatcher: Dispatcher | undefined, target: URL): ProxyFailure | undefined {
  if (!dispatcherModule || !(dispatcher instanceof dispatcherModule.ProxyDispatcher)) return undefined;
  const shown = dispatcher.shownProxy;
  const hp = dispatcher.proxyHostPort;
  if (shown === undefined || hp === undefined) return undefined;
  for (const x of chain(e)) {
    if (x instanceof dispatcherModule.ProxyTunnelError) {
      return { code: x.code, sent: false, detail: l10n.t('the proxy {0} {1}, so no tunnel to {2} was opened; check http.proxy or HTTPS_PROXY, or try again in a moment', shown, x.message, target.host) };
    }
    const msg = errorText(x);
    const refused = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/u.exec(msg);
    if (refused?.[1]) {
      const status = Number(refused[1]);
      const auth = status === 407 || status === 403;
      const what = l10n.t('HTTP {0}{1}', status, STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : '');
      const advice = auth
        ? l10n.t('check the proxy user name and password (in the proxy URL of http.proxy or HTTPS_PROXY, or http.proxyAuthorization), or ask whoever runs the proxy to allow this host')
        : l10n.t('the proxy could not reach the API; check the base URL, or try again in a moment');
      return { code: auth ? 'PROXY_AUTH' : 'PROXY_TUNNEL', sent: false, detail: l10n.t('the proxy {0} refused to open a tunnel to {1} ({2}): {3}', shown, target.host, what, advice) };
    }
    const code = errorCode(x);
    const info = x as { address?: unknown; hostname?: unknown; port?: unknown };
    const atProxy =
      info.hostname === hp.host || info.address === hp.host || (Number(info.port) === hp.port && (isIP(hp.host) === 0 || info.address === undefined));
    if (code && atProxy && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ETIMEDOUT)$/u.test(code)) {
      return { code, sent: false, detail: l10n.t('could not reach the proxy {0} ({1}); check http.proxy or HTTPS_PROXY', shown, code) };
    }
  }
  return undefined;
}

/** A hint for a certificate failure when a proxy is configured (a TLS-inspecting proxy presents its own certificate). */
export function proxyCertificateHint(dispatcher: Dispatcher | undefined): string | undefined {
  if (!dispatcherModule || !(dispatcher instanceof dispatcherModule.ProxyDispatcher) || dispatcher.shownProxy === undefined) return undefined;
  return l10n.t('requests go through the proxy {0}; if it inspects TLS with its own certificate, add its CA to NODE_EXTRA_CA_CERTS, or (less safe: the proxy can then read the key) turn off http.proxyStrictSSL', dispatcher.shownProxy);
}
