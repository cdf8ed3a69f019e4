import { finding } from '../settings.js';
import { hostOf, isExfilHost, isExternalHost, mentionsSecret } from '../secret-refs.js';
import type { EffectFinding } from '../types.js';
import { classifyPath } from '../paths.js';
import { isMetadataUrl } from '../metadata.js';

/**
 * An HTTP request described by tool arguments (`url` + `method`/`body`/`data`/`json`/`headers`): what leaves,
 * and where to. Secret references in the URL or body go out with the request (ATT&CK T1567); a header carrying
 * a secret to its own service is ordinary authentication, unless the host captures requests for someone else.
 */
export interface HttpRequest {
  url: string;
  method?: string;
  /** Serialised body/data/json/form/params values. */
  body: string;
  headers: string;
}

const BARE_IP = /^\[?[0-9a-f:.]+\]?$/i;

export function judgeHttp(req: HttpRequest): EffectFinding[] {
  if (isMetadataUrl(req.url)) return [finding('http-cloud-metadata', 'cloud_metadata', 'request to the cloud instance-metadata endpoint')];
  const host = hostOf(req.url) ?? '';
  if (!host || !isExternalHost(host)) return [];
  const capture = isExfilHost(req.url);
  const bareIp = BARE_IP.test(host) && host.includes('.');
  const secretInData = mentionsSecret(req.url) || mentionsSecret(req.body);
  const secretInHeader = mentionsSecret(req.headers);
  const sendsData = req.body.length > 0 || /^(post|put|patch)$/i.test(req.method ?? '') || /\?.{8,}/.test(req.url);
  const fileRef = /(?:^|["'\s=@])(?:@|file:\/\/)(\/|~)[^\s"']{1,256}/.exec(req.body)?.[0];
  const credentialFile = fileRef !== undefined && classifyPath(fileRef.replace(/^[\s"'=]*(@|file:\/\/)/, '')).has('credentials');
  const out: EffectFinding[] = [];
  if (credentialFile) out.push(finding('http-send-credential-file', 'secret_exfiltration', 'request body carries a credential file'));
  if (secretInData || (secretInHeader && (capture || bareIp))) {
    out.push(capture || bareIp ? finding('http-send-secret', 'secret_exfiltration', `secret reference sent to ${capture ? 'a request-capture host' : 'a bare IP'}`) : finding('http-secret-in-request', 'secret_in_request', 'secret reference in the URL or body of a request'));
  } else if (capture && sendsData) out.push(finding('http-exfil-host', 'exfil_host_upload', 'sends data to a request-capture or file-drop host'));
  return out;
}
