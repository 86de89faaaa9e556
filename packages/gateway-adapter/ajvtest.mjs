import { Ajv } from 'ajv';
import { RE2JS } from 're2js';
const engine = (p, u) => { const r = RE2JS.compile(RE2JS.translateRegExp(p)); return { test: (s) => r.test(s) }; };
engine.code = 're2js';
const ajv = new Ajv({ allErrors: true, strict: false, addUsedSchema: false, code: { regExp: engine } });
const a = { $id: 'http://x/a', type: 'object', properties: { p: { $id: 'http://x/inner', type: 'string' } } };
ajv.compile(a);
try { ajv.compile(a); console.log('recompile ok'); } catch (e) { console.log('recompile err', e.message); }
try { const v = ajv.compile({ type: 'object', properties: { q: { $ref: 'http://x/inner' } } }); console.log('cross ref resolved!', v({q: 1})); } catch (e) { console.log('cross ref err', e.message); }
const v = ajv.compile({ type: 'string', pattern: '^(a+)+$' });
let t = Date.now(); console.log(v('a'.repeat(30000)+'b'), Date.now()-t);
// deep
let deep = { type: 'string' }; for (let i = 0; i < 10000; i++) deep = { type: 'object', properties: { x: deep } };
t = Date.now(); try { ajv.compile(deep); console.log('deep compiled', Date.now()-t); } catch (e) { console.log('deep err', e.constructor.name, e.message.slice(0,80), Date.now()-t); }
// exponential refs
const defs = { a0: { type: 'string', minLength: 1 } };
for (let i = 1; i < 30; i++) defs['a'+i] = { allOf: [{ $ref: '#/definitions/a'+(i-1) }, { $ref: '#/definitions/a'+(i-1) }] };
t = Date.now(); try { const vv = ajv.compile({ definitions: defs, $ref: '#/definitions/a29' }); console.log('exp compiled', Date.now()-t); t=Date.now(); console.log(vv('x'), 'validate', Date.now()-t); } catch (e) { console.log('exp err', e.message.slice(0,80), Date.now()-t); }
