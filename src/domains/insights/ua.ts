/**
 * The browser, OS, device and bot a user agent names, as the insights columns `visitorBrowser`,
 * `visitorOS`, `visitorDevice` and `visitorBot` take them. Read from the first 512 characters
 * only (a user agent is short; the patterns stay linear).
 */

const BOTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/Googlebot/i, 'googlebot'],
  [/bingbot/i, 'bingbot'],
  [/DuckDuckBot/i, 'duckduckbot'],
  [/DuckAssistBot/i, 'duckassist'],
  [/facebookexternalhit|facebookcatalog/i, 'facebookbot'],
  [/meta-externalagent|meta-externalfetcher/i, 'meta-fetcher'],
  [/Applebot/i, 'applebot'],
  [/ChatGPT-User/i, 'chatgpt'],
  [/OAI-SearchBot/i, 'openai'],
  [/GPTBot/i, 'gptbot'],
  [/ClaudeBot/i, 'claudebot'],
  [/claude-code/i, 'claude-code'],
  [/Claude-User|Claude-SearchBot/i, 'claude'],
  [/anthropic-ai/i, 'anthropic'],
  [/Google-Extended|Gemini/i, 'gemini'],
  [/Perplexity/i, 'perplexity'],
  [/cohere-ai/i, 'cohere'],
  [/MistralAI/i, 'mistral'],
  [/DeepSeek/i, 'deepseek'],
  [/Bytespider/i, 'bytespider'],
  [/CCBot/i, 'ccbot'],
  [/Amazonbot/i, 'amazonbot'],
  [/YouBot/i, 'youbot'],
  [/Cursor/i, 'cursor'],
  [/GitHub-Copilot|copilot/i, 'github-copilot'],
  [/Grok/i, 'grok'],
  [/bot\b|crawler|spider|curl\/|wget\//i, 'unknown'],
]

export interface VisitorAgent {
  browser: string
  os: string
  device: string
  bot: string | null
}

export function classifyUserAgent(userAgent: string): VisitorAgent {
  const ua = userAgent.slice(0, 512)
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'edge'
    : /OPR\/|Opera/.test(ua)
      ? 'opera'
      : /MSIE |Trident\//.test(ua)
        ? 'ie'
        : /Firefox\/|FxiOS\//.test(ua)
          ? 'firefox'
          : /Chrome\/|CriOS\//.test(ua)
            ? 'chrome'
            : /Safari\//.test(ua)
              ? 'safari'
              : 'unknown'
  const os = /iPhone|iPad|iPod/.test(ua)
    ? 'ios'
    : /Android/.test(ua)
      ? 'android'
      : /Windows/.test(ua)
        ? 'windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macos'
          : /Linux|X11/.test(ua)
            ? 'linux'
            : 'unknown'
  const device =
    /iPad|Tablet/.test(ua) || (os === 'android' && !/Mobile/.test(ua))
      ? 'tablet'
      : /Mobi|iPhone|iPod/.test(ua)
        ? 'mobile'
        : os === 'unknown'
          ? 'unknown'
          : 'desktop'
  const bot = BOTS.find(([pattern]) => pattern.test(ua))?.[1] ?? null
  return { browser, os, device, bot }
}
