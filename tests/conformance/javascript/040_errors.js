// throw and catch: Error objects, messages, finally, rethrow, custom error classes.
try { throw new Error('boom'); } catch (e) { console.log(e.message, e instanceof Error, e.name); }
try { throw { code: 42 }; } catch ({ code }) { console.log('code', code); }
try { throw 'text'; } catch (e) { console.log(typeof e, e); }
function withFinally() { try { return 'try'; } finally { console.log('finally runs'); } }
console.log(withFinally());
function override() { try { throw new Error('x'); } catch { return 'caught'; } finally { console.log('cleanup'); } }
console.log(override());
class ValidationError extends Error {
  constructor(field) { super(`bad ${field}`); this.name = 'ValidationError'; this.field = field; }
}
try { throw new ValidationError('size'); } catch (e) { console.log(e.name, e.message, e.field, e instanceof ValidationError, e instanceof Error); }
try { try { throw new RangeError('inner'); } catch (e) { throw new TypeError('outer ' + e.message); } } catch (e) { console.log(e.name, e.message); }
console.log(String(new Error('as text')), `${new TypeError('t')}`);
