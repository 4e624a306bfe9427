/**
 * English words that carry grammar rather than topic. Without a corpus there is
 * no inverse document frequency to make them weigh little, so they are removed
 * outright: otherwise "what is the best way to" would count as five request
 * terms that almost any English passage covers.
 *
 * Question words are here on purpose: a request says "how" and "which", a
 * passage that answers it rarely does. "not" and "no" are here as well; the
 * lexical judge cannot read negation in any case, and keeping them would only
 * reward passages that happen to contain them.
 *
 * The pieces left when an apostrophe splits a contraction ("don't" gives "don"
 * and "t", "it's" gives "it" and "s") are listed too, since the tokenizer
 * splits on every character that is not a letter or a digit.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  // articles, determiners, quantifiers
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'some', 'any', 'each', 'every', 'all', 'both',
  'either', 'neither', 'other', 'another', 'such', 'own', 'same', 'more', 'most', 'less', 'few',
  'much', 'many', 'very', 'too', 'also', 'just', 'only', 'than', 'then', 'there', 'here',
  // pronouns
  'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'ourselves', 'you', 'your', 'yours',
  'yourself', 'yourselves', 'he', 'him', 'his', 'himself', 'she', 'her', 'hers', 'herself', 'it',
  'its', 'itself', 'they', 'them', 'their', 'theirs', 'themselves',
  // question words and relatives
  'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how', 'whether', 'whatever',
  // auxiliaries and modals
  'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'have', 'has', 'had', 'having', 'do',
  'does', 'did', 'doing', 'done', 'can', 'could', 'may', 'might', 'must', 'shall', 'should',
  'will', 'would', 'get', 'gets', 'got',
  // prepositions
  'of', 'in', 'on', 'at', 'to', 'from', 'by', 'for', 'with', 'without', 'about', 'into', 'onto',
  'over', 'under', 'above', 'below', 'between', 'among', 'through', 'during', 'before', 'after',
  'against', 'within', 'upon', 'via', 'per', 'up', 'down', 'out', 'off', 'again', 'further',
  // conjunctions and negation
  'and', 'or', 'but', 'nor', 'so', 'if', 'because', 'as', 'until', 'while', 'though', 'although',
  'not', 'no', 'yes',
  // what contractions leave behind once the apostrophe splits them
  's', 't', 'd', 'll', 'm', 're', 've', 'don', 'doesn', 'didn', 'isn', 'aren', 'wasn', 'weren',
  'hasn', 'haven', 'hadn', 'shouldn', 'couldn', 'wouldn', 'mustn', 'needn',
  // request boilerplate
  'please',
]);
