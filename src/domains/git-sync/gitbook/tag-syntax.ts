import type { Literal } from 'mdast'
import type { CompileContext, Extension as FromMarkdownExtension, Token } from 'mdast-util-from-markdown'
import type { Options as ToMarkdownExtension } from 'mdast-util-to-markdown'
import type { Code, Effects, Extension, State, TokenizeContext } from 'micromark-util-types'

/**
 * GitBook's block tags, `{% hint style="info" %}` … `{% endhint %}`, as markdown syntax: a
 * micromark extension that reads a line holding one tag (`{%`, a name, `key="value"`
 * attributes or a bare `"value"` argument, `%}`) as a flow construct (it may interrupt a paragraph, as `{% endhint %}` right
 * after a line of text does), and the mdast node it gives (`gitbookTag`, one per line: the
 * transform in blocks.ts pairs an opening tag with its `end…` tag), written back as it was read.
 */

export interface GitbookTag extends Literal {
  type: 'gitbookTag'
  /** `hint`, `endhint`… */
  name: string
  /** The attributes in order, values as written between the quotes. */
  attributes: Array<[string, string]>
  /** The line as written. */
  value: string
}

declare module 'mdast' {
  interface RootContentMap {
    gitbookTag: GitbookTag
  }
  interface BlockContentMap {
    gitbookTag: GitbookTag
  }
}

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    gitbookTag: 'gitbookTag'
    gitbookTagMarker: 'gitbookTagMarker'
    gitbookTagName: 'gitbookTagName'
    gitbookTagAttributeName: 'gitbookTagAttributeName'
    gitbookTagAttributeValue: 'gitbookTagAttributeValue'
    gitbookTagAttributeQuote: 'gitbookTagAttributeQuote'
    gitbookTagEquals: 'gitbookTagEquals'
    gitbookTagArgument: 'gitbookTagArgument'
  }
}

// micromark's character codes: negative ones are line endings and tabs, null the end.
const LEFT_BRACE = 123
const RIGHT_BRACE = 125
const PERCENT = 37
const EQUALS = 61
const QUOTE = 34
const APOSTROPHE = 39
const space = (code: Code) => code === 32 || code === -2 || code === -1
const lineEnd = (code: Code) => code === null || code === -5 || code === -4 || code === -3
/** Letters, digits, `-`, `_` and `:` (names such as `content-ref`, `endhint`). */
const nameChar = (code: Code) =>
  code !== null && ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 45 || code === 95 || code === 58)

function tokenizeTag(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  let quote: Code = null
  /** Whether the quoted value being read is an argument (a token around it, quotes included). */
  let argument = false
  const spaces = (next: State): State => {
    const more: State = (code) => {
      if (space(code)) {
        effects.consume(code)
        return more
      }
      effects.exit('whitespace')
      return next(code)
    }
    return (code) => {
      if (!space(code)) return next(code)
      effects.enter('whitespace')
      effects.consume(code)
      return more
    }
  }
  const start: State = (code) => {
    if (code !== LEFT_BRACE) return nok(code)
    effects.enter('gitbookTag')
    effects.enter('gitbookTagMarker')
    effects.consume(code)
    return percentOpen
  }
  const percentOpen: State = (code) => {
    if (code !== PERCENT) return nok(code)
    effects.consume(code)
    effects.exit('gitbookTagMarker')
    return spaces(nameStart)
  }
  const nameStart: State = (code) => {
    if (!nameChar(code)) return nok(code)
    effects.enter('gitbookTagName')
    effects.consume(code)
    return nameRest
  }
  const nameRest: State = (code) => {
    if (nameChar(code)) {
      effects.consume(code)
      return nameRest
    }
    effects.exit('gitbookTagName')
    return afterItem(code)
  }
  // After the name or an attribute: spaces, then another attribute or the closing `%}`.
  const afterItem: State = (code) => {
    if (!space(code) && code !== PERCENT) return nok(code)
    return spaces(attributeOrClose)(code)
  }
  const attributeOrClose: State = (code) => {
    if (code === PERCENT) {
      effects.enter('gitbookTagMarker')
      effects.consume(code)
      return braceClose
    }
    // A value without a name: `{% include "path" %}`'s argument.
    if (code === QUOTE || code === APOSTROPHE) {
      effects.enter('gitbookTagArgument')
      argument = true
      return quoteOpen(code)
    }
    if (!nameChar(code)) return nok(code)
    effects.enter('gitbookTagAttributeName')
    effects.consume(code)
    return attributeName
  }
  const attributeName: State = (code) => {
    if (nameChar(code)) {
      effects.consume(code)
      return attributeName
    }
    effects.exit('gitbookTagAttributeName')
    if (code !== EQUALS) return nok(code)
    effects.enter('gitbookTagEquals')
    effects.consume(code)
    effects.exit('gitbookTagEquals')
    return quoteOpen
  }
  const quoteOpen: State = (code) => {
    if (code !== QUOTE && code !== APOSTROPHE) return nok(code)
    quote = code
    effects.enter('gitbookTagAttributeQuote')
    effects.consume(code)
    effects.exit('gitbookTagAttributeQuote')
    return valueStart
  }
  const valueStart: State = (code) => {
    if (code === quote) return quoteClose(code)
    if (lineEnd(code)) return nok(code)
    effects.enter('gitbookTagAttributeValue')
    return value(code)
  }
  const value: State = (code) => {
    if (code === quote) {
      effects.exit('gitbookTagAttributeValue')
      return quoteClose(code)
    }
    if (lineEnd(code)) return nok(code)
    effects.consume(code)
    return value
  }
  const quoteClose: State = (code) => {
    effects.enter('gitbookTagAttributeQuote')
    effects.consume(code)
    effects.exit('gitbookTagAttributeQuote')
    if (argument) {
      effects.exit('gitbookTagArgument')
      argument = false
    }
    return afterItem
  }
  const braceClose: State = (code) => {
    if (code !== RIGHT_BRACE) return nok(code)
    effects.consume(code)
    effects.exit('gitbookTagMarker')
    return spaces(end)
  }
  const end: State = (code) => {
    if (!lineEnd(code)) return nok(code)
    effects.exit('gitbookTag')
    return ok(code)
  }
  return start
}

/** The micromark syntax: a flow construct starting at `{`. */
export const tagSyntax: Extension = { flow: { [LEFT_BRACE]: { name: 'gitbookTag', tokenize: tokenizeTag } } }

const top = (ctx: CompileContext) => ctx.stack[ctx.stack.length - 1] as unknown as GitbookTag

/** Tokens to the `gitbookTag` node. */
export const tagFromMarkdown: FromMarkdownExtension = {
  enter: {
    gitbookTag(this: CompileContext, token: Token) {
      this.enter({ type: 'gitbookTag', name: '', attributes: [], value: this.sliceSerialize(token) } as never, token)
    },
    // An argument is an attribute named '' (its value follows, as an attribute's).
    gitbookTagArgument(this: CompileContext) {
      top(this).attributes.push(['', ''])
    },
  },
  exit: {
    gitbookTagName(this: CompileContext, token: Token) {
      top(this).name = this.sliceSerialize(token)
    },
    gitbookTagAttributeName(this: CompileContext, token: Token) {
      top(this).attributes.push([this.sliceSerialize(token), ''])
    },
    gitbookTagAttributeValue(this: CompileContext, token: Token) {
      const attributes = top(this).attributes
      attributes[attributes.length - 1]![1] = this.sliceSerialize(token)
    },
    gitbookTag(this: CompileContext, token: Token) {
      this.exit(token)
    },
  },
}

/** A tag as its line: `{% name key="value" %}` (a value holding `"` between `'`). */
export function tagLine(name: string, attributes: ReadonlyArray<readonly [string, string]> = []): string {
  const attrs = attributes.map(([key, value]) => ` ${key === '' ? '' : `${key}=`}${value.includes('"') ? `'${value}'` : `"${value}"`}`).join('')
  return `{% ${name}${attrs} %}`
}

/** The node written back: the line as read, or as `tagLine` makes it. */
export const tagToMarkdown: ToMarkdownExtension = {
  handlers: {
    gitbookTag: (node: GitbookTag) => node.value || tagLine(node.name, node.attributes),
  } as never,
}
