import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../contracts/errors.ts';

// JSON bodies as fastify reads them (secure-json-parse: __proto__ and constructor.prototype keys refused), but decoded
// strictly: a body that is not valid UTF-8 is a 400, where fastify's reading would have turned each broken sequence
// into U+FFFD and stored that in place of what the client meant.

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export const jsonBodyPlugin = fp(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      let text: string;
      try {
        text = strictUtf8.decode(body as Buffer);
      } catch {
        done(new AppError('invalid', 'invalid_json', 'The request body is not valid UTF-8.'), undefined);
        return;
      }
      parseJson(request, text, done);
    });
  },
  { name: 'json-body' },
);
