import { yamlLibrary } from '../../content/markdown-libs.js'
import type { JsonDocument } from '../../content/document.js'
import { emptyDocument } from '../../content/document.js'
import { MarkdownError, type MarkdownImport } from '../../content/markdown.js'
import { readGitbookMarkdown } from '../gitbook/markdown.js'
import { slugify, uniqueSlug } from '../../content/slug.js'
import type { GitSyncFrontmatter } from '../rows.js'
import type { TreeFile } from '../git-repo.js'
import { GitSyncError } from '../errors.js'
import { basename, dirname, isWithin, join, normalizePath, resolveLink } from './paths.js'
import { eachRef } from './refs.js'
import { parseSummary, type SummaryEntry } from './summary.js'
import { MAX_REUSABLE_CONTENTS } from '../../content/reusable.js'
import { redirectSource } from '../../content/redirects.js'

/**
 * A repository's content read in GitBook's Git Sync layout (see docs/behaviour/git-sync.md): the
 * optional `.gitbook.yaml` of the project folder (`root`, `structure.readme`,
 * `structure.summary`); `README.md` the first page; `SUMMARY.md` the page tree (nested links,
 * `## Group` headings), or else the files and folders (`folder/README.md` is the folder's page);
 * each page's markdown (GitBook-flavoured: gitbook/markdown.ts), its frontmatter (metadata) and leading `# Title`; and the files under
 * `.gitbook/assets/` the pages reference.
 */

export interface PageMetadata {
  description?: string
  icon?: string
  emoji?: string
  hidden?: boolean
  noIndex?: boolean
  noRobotsIndex?: boolean
  condition?: string
}

export interface ImportedPage {
  type: 'document' | 'group'
  title: string
  slug: string
  /** The markdown file (repository path); none for a group, or a folder page without README. */
  file?: string
  /** Its blob. */
  oid?: string
  /** The frontmatter's keys in order and the values the content model has no place for (`layout`...). */
  frontmatter?: GitSyncFrontmatter
  /** Its body, links still as written (see links in resolve.ts). */
  document: JsonDocument
  meta: PageMetadata
  children: ImportedPage[]
}

export interface ImportedContent {
  pages: ImportedPage[]
  /** The folder the content is read from (the project folder joined with `.gitbook.yaml`'s `root`). */
  root: string
  /** Page by markdown file, for links between pages. */
  byFile: Map<string, ImportedPage>
  /** The files of the content folder's `.gitbook/assets/` (referenced or not) and of other `.gitbook/assets/` folders that pages reference, by path. */
  assets: Map<string, TreeFile>
  /** SUMMARY.md's path, when the repository has one. */
  summary?: string
  /** The `.gitbook.yaml` read (the readme's and summary's names an export writes). */
  config: Config
  /** The reusable contents: the markdown files of the content folder's `.gitbook/includes/`, by path. */
  includes: Map<string, ImportedInclude>
  /** `.gitbook.yaml`'s redirects: a source path → a markdown file (those naming no page are left out by the import). */
  redirects: Config['redirects']
}

/** A file of `.gitbook/includes/`: a reusable content (its title from the frontmatter's `title`, else the file name). */
export interface ImportedInclude {
  title: string
  oid: string
  /** Its body, links and inclusions still as written. */
  document: JsonDocument
}

export interface RepoSnapshot {
  files: ReadonlyMap<string, TreeFile>
  text(path: string): Promise<string>
  /**
   * A page file's markdown read (GitBook-flavoured, a leading `# Title` the title), or a
   * MarkdownError: through the offload in a job (gitbook/tasks.ts). On this thread when left out.
   */
  readMarkdown?(markdown: string, options?: { takeTitle?: boolean }): Promise<MarkdownImport>
}

export interface Config {
  root: string
  readme: string
  summary: string
  /** `.gitbook.yaml`'s `redirects:` (a source path → a markdown file, repository path), in the file's order. */
  redirects: Array<{ source: string; file: string }>
}

/**
 * A symbolic link (a blob of mode 120000) holds a path, whatever its name says: read as a page,
 * an asset, SUMMARY.md, `.gitbook.yaml` or an include, it would bring in what it points at
 * (outside the project folder, or the repository) or its target's name as content. The layout
 * reads none: the repository as read here has no links (an export keeps them as they are: they
 * are never the sync's own files). Nor does it read a submodule (a gitlink, mode 160000: a commit
 * of another repository, no file here), which an export keeps as it is too.
 */
const isLink = (file: TreeFile): boolean => file.mode === '120000' || file.mode === '160000'

function withoutLinks(repo: RepoSnapshot): RepoSnapshot {
  if (![...repo.files.values()].some(isLink)) return repo
  return {
    files: new Map([...repo.files].filter(([, file]) => !isLink(file))),
    text: (path) => repo.text(path),
    ...(repo.readMarkdown && { readMarkdown: repo.readMarkdown.bind(repo) }),
  }
}

export async function readConfig(source: RepoSnapshot, project: string): Promise<Config> {
  const repo = withoutLinks(source)
  const path = join(project, '.gitbook.yaml')
  const config: Config = { root: project, readme: 'README.md', summary: 'SUMMARY.md', redirects: [] }
  if (!repo.files.has(path)) return config
  let parsed: unknown
  try {
    parsed = yamlLibrary.get().parse(await repo.text(path))
  } catch (error) {
    throw new GitSyncError(`${path} is not valid YAML (${(error as Error).message.split('\n')[0]})`)
  }
  if (parsed === null || parsed === undefined) return config
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new GitSyncError(`${path} must be a mapping (root, structure)`)
  const yaml = parsed as { root?: unknown; structure?: { readme?: unknown; summary?: unknown }; redirects?: unknown }
  const text = (value: unknown, name: string): string | undefined => {
    if (value === undefined || value === null) return undefined
    if (typeof value !== 'string') throw new GitSyncError(`${path}: \`${name}\` must be a string`)
    return value
  }
  const root = text(yaml.root, 'root')
  if (root !== undefined) {
    const joined = join(project, root)
    if (!isWithin(joined, project) || root.split('/').includes('..')) throw new GitSyncError(`${path}: \`root\` must stay inside the project folder`)
    config.root = joined
  }
  config.readme = text(yaml.structure?.readme, 'structure.readme') ?? config.readme
  config.summary = text(yaml.structure?.summary, 'structure.summary') ?? config.summary
  // Files are read only from the project folder (repoProjectDirectory): nothing outside it becomes content.
  for (const key of ['readme', 'summary'] as const) {
    const file = normalizePath(`${config.root}/${config[key]}`)
    if (file === undefined || file === '' || !isWithin(file, project))
      throw new GitSyncError(`${path}: \`structure.${key}\` must name a file inside the project folder`)
  }
  config.redirects = readRedirects(yaml.redirects, path, config.root)
  return config
}

/**
 * `redirects:`: a mapping of a source (a path under the space's published URL, no leading slash)
 * to a destination (a markdown file, relative to the content root). A destination that climbs
 * out of the root is left out, as one naming no page is (by the import).
 */
function readRedirects(value: unknown, path: string, root: string): Config['redirects'] {
  if (value === undefined || value === null) return []
  if (typeof value !== 'object' || Array.isArray(value)) throw new GitSyncError(`${path}: \`redirects\` must be a mapping of a path to a markdown file`)
  const out: Config['redirects'] = []
  for (const [source, destination] of Object.entries(value as Record<string, unknown>)) {
    if (typeof destination !== 'string') throw new GitSyncError(`${path}: \`redirects.${source}\` must be a markdown file's path`)
    const target = resolveLink(root, root, destination.replace(/^\/+/, ''))
    if (target && isWithin(target.path, root) && redirectSource(source) !== '') out.push({ source: redirectSource(source), file: target.path })
  }
  return out
}

const humanize = (name: string): string => {
  const words = name.replace(/\.md$/i, '').replace(/[-_]+/g, ' ').trim()
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Untitled'
}

const METADATA_STRINGS = ['description', 'icon', 'emoji', 'condition'] as const
const METADATA_FLAGS = ['hidden', 'noIndex', 'noRobotsIndex'] as const
/** Frontmatter keys the page itself carries (metadata, title, slug): the others are kept in the sync's record. */
const MODELLED = new Set<string>([...METADATA_STRINGS, ...METADATA_FLAGS, 'title', 'slug'])

function frontmatterOf(frontmatter: Record<string, unknown>): GitSyncFrontmatter | undefined {
  const keys = Object.keys(frontmatter)
  if (keys.length === 0) return undefined
  const extra: Record<string, unknown> = {}
  for (const key of keys) if (!MODELLED.has(key)) extra[key] = frontmatter[key]
  return { keys, extra }
}

function metadataOf(frontmatter: Record<string, unknown>): PageMetadata {
  const meta: PageMetadata = {}
  for (const key of METADATA_STRINGS) if (typeof frontmatter[key] === 'string' && frontmatter[key] !== '') meta[key] = frontmatter[key]
  for (const key of METADATA_FLAGS) if (typeof frontmatter[key] === 'boolean') meta[key] = frontmatter[key]
  return meta
}

/** A markdown file as a page: its body, metadata, title (frontmatter, leading `# Title`, the summary's, the file name) and slug. */
async function readPage(
  repo: RepoSnapshot,
  file: string,
  fallbackTitle: string | undefined,
  readme: boolean,
): Promise<Omit<ImportedPage, 'children' | 'slug'> & { slug?: string }> {
  let parsed: ReturnType<typeof readGitbookMarkdown>
  try {
    const text = await repo.text(file)
    parsed = repo.readMarkdown ? await repo.readMarkdown(text) : readGitbookMarkdown(text, { takeTitle: true })
  } catch (error) {
    if (error instanceof MarkdownError) throw new GitSyncError(`${file}: the markdown ${error.message}`)
    throw error
  }
  const title = (parsed.title?.trim() || fallbackTitle?.trim() || humanize(readme ? basename(dirname(file)) || 'Introduction' : basename(file))).slice(
    0,
    10_000,
  )
  const fm = parsed.frontmatter
  const slug = typeof fm.slug === 'string' && fm.slug.trim() ? slugify(fm.slug) : undefined
  const frontmatter = frontmatterOf(fm)
  return {
    type: 'document',
    title,
    file,
    oid: repo.files.get(file)!.oid,
    document: parsed.document,
    meta: metadataOf(fm),
    ...(slug !== undefined && { slug }),
    ...(frontmatter && { frontmatter }),
  }
}

/** The slug a file gives its page: its name, or its folder's for a README (the root README: from the title). */
function slugOfFile(file: string, root: string, title: string): string {
  const name = basename(file)
  if (name !== 'README.md') return slugify(name.replace(/\.md$/i, ''))
  const dir = dirname(file)
  return dir === root || dir === '' ? slugify(title) : slugify(basename(dir))
}

export async function readContent(source: RepoSnapshot, projectDirectory: string | undefined): Promise<ImportedContent> {
  const repo = withoutLinks(source)
  const links = new Set([...source.files].filter(([, file]) => isLink(file)).map(([path]) => path))
  const project = projectDirectory ?? ''
  if (project && ![...repo.files.keys()].some((p) => isWithin(p, project)))
    throw new GitSyncError(`the repository has no folder "${project}" (repoProjectDirectory)`)
  const config = await readConfig(repo, project)
  const byFile = new Map<string, ImportedPage>()
  const summaryPath = join(config.root, config.summary)
  const readmePath = join(config.root, config.readme)

  const pageFromFile = async (file: string, fallbackTitle: string | undefined): Promise<ImportedPage> => {
    const read = await readPage(repo, file, fallbackTitle, basename(file) === 'README.md')
    const page: ImportedPage = { ...read, slug: read.slug ?? slugOfFile(file, config.root, read.title), children: [] }
    byFile.set(file, page)
    return page
  }

  let pages: ImportedPage[]
  // A summary entry or a reference leading out of the project folder reads nothing there (docs/behaviour/git-sync.md "Boundaries").
  const inProject = (path: string) => isWithin(path, project)
  if (repo.files.has(summaryPath))
    pages = await fromSummary(repo, await repo.text(summaryPath), dirname(summaryPath), readmePath, byFile, pageFromFile, inProject, links)
  else pages = await fromFolders(repo, config.root, readmePath, pageFromFile)
  if (pages.length === 0) throw new GitSyncError(`no page found: the repository has no markdown file under "${config.root || '/'}"`)
  uniqueSlugs(pages)

  // The assets: every file of the content folder's `.gitbook/assets/` (where an export writes a
  // space's files, referenced or not), and the files of other `.gitbook/assets/` folders pages reference.
  const assets = new Map<string, TreeFile>()
  const assetDir = join(config.root, '.gitbook/assets')
  for (const [path, file] of repo.files) if (isWithin(path, assetDir) && path !== assetDir && file.mode !== '160000') assets.set(path, file)
  const referenced = (document: JsonDocument, from: string) =>
    eachRef(document, (ref) => {
      if (ref.kind !== 'url' || typeof ref.url !== 'string') return
      const target = resolveLink(from, config.root, ref.url)
      if (!target || !inProject(target.path)) return
      const file = repo.files.get(target.path)
      if (file && /(^|\/)\.gitbook\/assets\//.test(target.path)) assets.set(target.path, file)
    })
  const visit = (page: ImportedPage) => {
    referenced(page.document, page.file ? dirname(page.file) : config.root)
    page.children.forEach(visit)
  }
  pages.forEach(visit)
  const includes = await readIncludes(repo, config.root)
  for (const include of includes.values()) referenced(include.document, join(config.root, '.gitbook/includes'))
  return {
    pages,
    root: config.root,
    byFile,
    assets,
    includes,
    config,
    redirects: config.redirects,
    ...(repo.files.has(summaryPath) && { summary: summaryPath }),
  }
}

/** The reusable contents of the content folder: its `.gitbook/includes/*.md` (GitBook's layout for them), at most MAX_REUSABLE_CONTENTS. */
async function readIncludes(repo: RepoSnapshot, root: string): Promise<Map<string, ImportedInclude>> {
  const dir = join(root, '.gitbook/includes')
  const out = new Map<string, ImportedInclude>()
  for (const [path, file] of repo.files) {
    if (dirname(path) !== dir || !/\.md$/i.test(path) || file.mode === '160000') continue
    if (out.size >= MAX_REUSABLE_CONTENTS)
      throw new GitSyncError(`${dir}: more than ${MAX_REUSABLE_CONTENTS} reusable contents (a space holds at most that many)`)
    let parsed: MarkdownImport
    try {
      const text = await repo.text(path)
      parsed = repo.readMarkdown ? await repo.readMarkdown(text, { takeTitle: false }) : readGitbookMarkdown(text, { takeTitle: false })
    } catch (error) {
      if (error instanceof MarkdownError) throw new GitSyncError(`${path}: the markdown ${error.message}`)
      throw error
    }
    const named = typeof parsed.frontmatter.title === 'string' ? parsed.frontmatter.title.trim() : ''
    const title = (named || humanize(basename(path))).slice(0, 100)
    out.set(path, { title, oid: file.oid, document: parsed.document })
  }
  return out
}

/** Siblings keep distinct slugs (two files may give the same one): later ones get `-2`, `-3`... */
function uniqueSlugs(pages: ImportedPage[]): void {
  const taken = new Set<string>()
  for (const page of pages) {
    page.slug = uniqueSlug(page.slug, taken)
    taken.add(page.slug)
    uniqueSlugs(page.children)
  }
}

type PageFromFile = (file: string, fallbackTitle: string | undefined) => Promise<ImportedPage>

async function fromSummary(
  repo: RepoSnapshot,
  summary: string,
  summaryDir: string,
  readmePath: string,
  byFile: Map<string, ImportedPage>,
  pageFromFile: PageFromFile,
  inProject: (path: string) => boolean,
  links: ReadonlySet<string>,
): Promise<ImportedPage[]> {
  const entryPages = async (entries: readonly SummaryEntry[]): Promise<ImportedPage[]> => {
    const out: ImportedPage[] = []
    for (const entry of entries) {
      const target = entry.link === undefined ? undefined : resolveLink(summaryDir, summaryDir, entry.link)
      // External links (a URL) are not pages of the space: the content model has no link target to keep.
      // Nor is a symbolic link: nothing is read there (and a page made in its place would be written over it).
      if ((entry.link !== undefined && !target) || (target && links.has(target.path))) continue
      const file = target?.path
      let page: ImportedPage
      // An entry leading out of the project folder is a page without content, as one naming a missing file.
      if (file !== undefined && inProject(file) && repo.files.has(file) && /\.md$/i.test(file)) {
        // A file listed twice is one page, at its first place.
        if (byFile.has(file)) continue
        page = await pageFromFile(file, entry.title)
      } else
        page = {
          type: 'document',
          title: entry.title || 'Untitled',
          slug: slugify(entry.title || basename(file ?? '') || 'page'),
          document: emptyDocument(),
          meta: {},
          children: [],
        }
      page.children = await entryPages(entry.children)
      out.push(page)
    }
    return out
  }
  const pages: ImportedPage[] = []
  for (const section of parseSummary(summary)) {
    const children = await entryPages(section.entries)
    if (section.group === undefined) pages.push(...children)
    else
      pages.push({
        type: 'group',
        title: section.group || 'Group',
        slug: groupSlug(section.group, children, summaryDir),
        document: emptyDocument(),
        meta: {},
        children,
      })
  }
  // README.md is the first page, listed in the summary or not.
  if (repo.files.has(readmePath) && !byFile.has(readmePath)) pages.unshift(await pageFromFile(readmePath, undefined))
  else if (byFile.has(readmePath)) {
    const readme = byFile.get(readmePath)!
    const at = pages.indexOf(readme)
    if (at > 0) pages.unshift(...pages.splice(at, 1))
  }
  return pages
}

/** A group's slug: the top folder (under the summary's) its pages' files share, or its title's. */
function groupSlug(title: string, children: readonly ImportedPage[], base: string): string {
  const top = (file: string) => {
    const rel = base ? file.slice(base.length + 1) : file
    return rel.includes('/') ? rel.split('/')[0] : undefined
  }
  const dirs = new Set(children.map((c) => (c.file && isWithin(c.file, base) ? top(c.file) : undefined)))
  const [only] = dirs
  return dirs.size === 1 && only ? slugify(only) : slugify(title)
}

async function fromFolders(repo: RepoSnapshot, root: string, readmePath: string, pageFromFile: PageFromFile): Promise<ImportedPage[]> {
  // Markdown files under the root, skipping hidden folders (`.gitbook`, `.github`) and node_modules.
  const markdown = [...repo.files.keys()].filter(
    (p) =>
      isWithin(p, root) &&
      /\.md$/i.test(p) &&
      !p
        .slice(root ? root.length + 1 : 0)
        .split('/')
        .some((s) => s.startsWith('.') || s === 'node_modules'),
  )
  const folder = async (dir: string): Promise<ImportedPage[]> => {
    const prefix = dir ? `${dir}/` : ''
    const names = new Set<string>()
    for (const path of markdown) if (path.startsWith(prefix)) names.add(path.slice(prefix.length).split('/')[0]!)
    const out: ImportedPage[] = []
    for (const name of [...names].sort()) {
      const path = `${prefix}${name}`
      if (path === readmePath || name === 'README.md') continue
      if (/\.md$/i.test(name) && repo.files.has(path)) out.push(await pageFromFile(path, undefined))
      else if (!repo.files.has(path)) {
        const readme = `${path}/README.md`
        const page = repo.files.has(readme)
          ? await pageFromFile(readme, undefined)
          : { type: 'document' as const, title: humanize(name), slug: slugify(name), document: emptyDocument(), meta: {}, children: [] }
        page.children = await folder(path)
        out.push(page)
      }
    }
    return out
  }
  const pages = await folder(root)
  if (repo.files.has(readmePath)) pages.unshift(await pageFromFile(readmePath, undefined))
  return pages
}
