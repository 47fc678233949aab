export { readFrontmatter, stringField, listField, flagField, type Frontmatter, type PageHead, type PageProblem } from './frontmatter.js';
export { parsePage, isMdxFile, PageSyntaxError, type ParsedPage, type PageBlock, type PageLink } from './parse-page.js';
export { checkMdxGrammar } from './mdx-grammar.js';
export { withoutComments } from './markdown.js';
export { readNavigation, parseNavigation, NavigationFileError, NAV_FILES, type NavEntry, type NavFile, type SiteNavigation } from './navigation.js';
export { searchability, type IndexScope, type Searchability } from './searchable.js';
export { normalisePagePath, pagePathOf, isPageFile, listPageFiles, pageFileExists, PAGE_FILE } from './page-path.js';
