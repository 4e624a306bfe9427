import { describe, expect, it } from 'vitest';
import { isCjkToken, stripPlural, tokenize } from '../../../../shared/judges/lexical/tokenize.js';

describe('tokenize', () => {
  it.each<[string, string, string[]]>([
    ['lower-cases and drops punctuation', 'Vector, DATABASE!', ['vector', 'database']],
    ['drops English stop words, question words included', 'How do I choose the metric for this?', ['choose', 'metric']],
    ['drops what contractions leave behind', "don't it's the user's", ['user']],
    ['keeps letters and digits together', 'BM25 and GPT-4', ['bm25', 'gpt', '4']],
    ['folds full-width forms (NFKC)', 'ＢＭ２５ Ｒａｎｋｉｎｇ', ['bm25', 'ranking']],
    ['folds ligatures (NFKC)', 'ﬁle', ['file']],
    ['strips plurals after lower-casing', 'Databases Queries', ['database', 'query']],
    ['keeps accented words whole', 'Café résumé', ['café', 'résumé']],
    ['keeps combining vowel signs inside a word', 'नमस्ते दुनिया', ['नमस्ते', 'दुनिया']],
    ['gives nothing for an empty text', '', []],
    ['gives nothing for punctuation and spaces', ' ,.;!? \n\t', []],
    ['gives nothing for stop words only', 'What is it and why?', []],
  ])('%s', (_described, text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });

  it.each<[string, string, string[]]>([
    ['cuts Chinese into overlapping bigrams', '向量数据库', ['向量', '量数', '数据', '据库']],
    ['keeps a lone Chinese character', '库', ['库']],
    ['restarts the bigrams after punctuation', '余弦，相似度', ['余弦', '相似', '似度']],
    ['splits where Latin letters meet Han', 'GPT模型', ['gpt', '模型']],
    ['keeps the Katakana length mark inside the run', 'ラーメン', ['ラー', 'ーメ', 'メン']],
    ['mixes Han and Kana in one run', '東京タワー', ['東京', '京タ', 'タワ', 'ワー']],
    ['cuts Hangul into bigrams', '한국어 검색', ['한국', '국어', '검색']],
    ['keeps characters outside the Basic Multilingual Plane whole', '𠀀𠀁', ['𠀀𠀁']],
  ])('%s', (_described, text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });

  it('tells CJK tokens from the others', () => {
    // Prepare
    const tokens = tokenize('GPT模型 ラーメン 검색 café 42');

    // Act
    const cjk = tokens.filter(isCjkToken);

    // Assess
    expect(cjk).toEqual(['模型', 'ラー', 'ーメ', 'メン', '검색']);
  });
});

describe('stripPlural', () => {
  it.each<[string, string]>([
    ['vectors', 'vector'],
    ['databases', 'database'],
    ['embeddings', 'embedding'],
    ['queries', 'query'],
    ['libraries', 'library'],
    ['classes', 'class'],
    ['indexes', 'index'],
    ['searches', 'search'],
    ['matches', 'match'],
    ['buzzes', 'buzz'],
    ['crashes', 'crash'],
    // singular words that end in s
    ['class', 'class'],
    ['status', 'status'],
    ['analysis', 'analysis'],
    // three letters or fewer: too short to tell
    ['gas', 'gas'],
    ['bus', 'bus'],
    // "-ies" needs two letters before it
    ['ties', 'ties'],
    // only the plain letters a-z
    ['cafés', 'cafés'],
    ['v2s', 'v2s'],
  ])('%s becomes %s', (token, expected) => {
    expect(stripPlural(token)).toBe(expected);
  });
});
