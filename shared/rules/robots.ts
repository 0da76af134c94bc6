/**
 * Link-preview bots and mail scanners open links without a person behind
 * them: their opens are logged but must not count as an inspection.
 */
const KNOWN = [
  /facebookexternalhit|facebot/i,
  /whatsapp/i,
  /telegrambot/i,
  /slack(bot|-imgproxy)/i,
  /twitterbot/i,
  /linkedinbot/i,
  /discordbot/i,
  /skypeuripreview/i,
  /microsoft office|ms-office|outlook|bingpreview|safelinks/i,
  /googlebot|google-safety|googleimageproxy|adsbot-google|feedfetcher/i,
  /bingbot|yandex|baiduspider|duckduckbot|applebot|petalbot|semrush|ahrefs/i,
  /mimecast|proofpoint|barracuda|trendmicro|symantec|forcepoint|cisco|fortiguard|sophos|zscaler/i,
  /iframely|embedly|pinterest|redditbot|vkshare|viber|signal|snapchat|line\//i,
  /\b(bot|crawler|spider|preview|scanner|fetcher|headless)\b/i,
  /^(curl|wget|python-requests|python-urllib|go-http-client|java|okhttp|axios|node-fetch|undici|libwww-perl)/i,
];

/** Why this request is a robot's, or null for a person. */
export function motivoRobot(req: { method: string; userAgent: string; headers: (name: string) => string }): string | null {
  if (req.method === 'HEAD') return 'petición HEAD';
  const purpose = `${req.headers('sec-purpose')} ${req.headers('purpose')} ${req.headers('x-purpose')} ${req.headers('x-moz')}`.toLowerCase();
  if (purpose.includes('prefetch') || purpose.includes('preview')) return 'precarga del navegador';
  if (!req.userAgent.trim()) return 'sin navegador';
  const hit = KNOWN.find((re) => re.test(req.userAgent));
  return hit ? `robot conocido (${req.userAgent.slice(0, 60)})` : null;
}
