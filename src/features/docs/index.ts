export { DocumentationScreen } from './DocumentationScreen'
export { HelpScreen } from './HelpScreen'
export { buildDocumentation, type Documentation, type DocumentationSources } from './buildDocumentation'
