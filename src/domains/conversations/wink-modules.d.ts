// wink-nlp declares its utilities without the `.js` extension that Node's ESM resolver needs for a
// package without an `exports` map: these say the files with the extension are the same modules.
declare module 'wink-nlp/utilities/bm25-vectorizer.js' {
  export * from 'wink-nlp/utilities/bm25-vectorizer'
  export { default } from 'wink-nlp/utilities/bm25-vectorizer'
}
