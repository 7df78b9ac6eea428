import { data } from '@remix-run/node';
import { evaluateCalculator } from '../calculator/evaluate';
import { rawValuesFromSearchParams, rawValuesToSearchParams, type CalculatorRawValues } from '../calculator/fields';
import { PROJECT_PARAM, QUOTE_INTENT, REMOVE_IMAGE_INTENT, SAVE_INTENT, UPLOAD_INTENT, type CalculatorIntent, type SaveError } from '../calculator/page';
import { FORM_BODY_LIMIT } from '../domain/limits';
import { invalid, type Failure, type Result } from '../domain/result';
import { getServerT } from '../i18n.server';
import { HIDDEN_PROJECT_FIELDS, type SavedProject } from '../models/calculator-projects.server';
import { readFormData } from './form-data.server';
import { readImageForm } from './image-upload.server';
import { isMultipart } from './multipart.server';
import { FAILURE_STATUS, failureMessage } from './result-response.server';
import { redirectWithToast } from './toast.server';

/**
 * The calculator page's action, read and answered: `readCalculatorPost` parses
 * what the form posted, the operations in models/calculator-projects.server.ts
 * decide, and `calculatorImageReply` / `calculatorSaveReply` turn their Result
 * into the page's answer. A refusal comes back with every input as typed (and
 * the evaluation, computed here, so the schema and engine stay out of the
 * first visit's JavaScript); a save goes to the project with the §8 toast.
 */

/** The calculator form as posted: its intent, its texts and the image file, if one was sent. */
export type CalculatorPost = {
  /** null: not one of the form's intents. */
  intent: CalculatorIntent | null;
  /** Every text field as posted (the save's schema checks them). */
  fields: Record<string, string>;
  /** What comes back on a refusal, cut to what a field can hold. */
  values: CalculatorRawValues;
  hidden: Record<string, string>;
  projectId: string | null;
  /** The no-JS upload's file (multipart); anything else has none. */
  image: Result<Buffer>;
};

const INTENTS: readonly string[] = [SAVE_INTENT, UPLOAD_INTENT, REMOVE_IMAGE_INTENT, QUOTE_INTENT];

/** Longest text the action sends back per field: the longest rule is the project name's 200 characters. */
const MAX_ECHOED_LENGTH = 256;

function echoedValues<T extends Record<string, string>>(values: T): T {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value.slice(0, MAX_ECHOED_LENGTH)])) as T;
}

/** The request guard's 413 (its German text), for a body only the page can measure. */
async function bodyTooLarge(): Promise<Response> {
  const t = await getServerT('auth');
  return new Response(t('auth:messages.bodyTooLarge'), { status: 413, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/**
 * Reads the calculator form. The no-JS image upload posts the whole form as
 * multipart (with the file); everything else is urlencoded. Only the image may
 * be large: the texts of a multipart body get the form limit (the request
 * guard already holds urlencoded bodies to it), and nothing of an oversized
 * body is echoed (413).
 */
export async function readCalculatorPost(request: Request): Promise<CalculatorPost> {
  const multipart = isMultipart(request);
  const upload = multipart ? await readImageForm(request) : { image: invalid('projects:image.failed'), form: null };
  // A body past what the page answers within itself: nothing of it was kept, the bare 413.
  if (multipart && !upload.form && upload.image.kind === 'tooLarge') throw await bodyTooLarge();
  const form = multipart ? (upload.form ?? new FormData()) : await readFormData(request);
  const fields: Record<string, string> = {};
  let textBytes = 0;
  for (const [name, value] of form) {
    if (typeof value !== 'string') continue;
    fields[name] = value;
    textBytes += name.length + value.length;
  }
  if (textBytes > FORM_BODY_LIMIT) throw await bodyTooLarge();
  return {
    intent: INTENTS.includes(fields.intent) ? (fields.intent as CalculatorIntent) : null,
    fields,
    values: echoedValues(rawValuesFromSearchParams(form)),
    hidden: echoedValues(Object.fromEntries(Object.entries(fields).filter(([name]) => (HIDDEN_PROJECT_FIELDS as string[]).includes(name)))),
    projectId: fields[PROJECT_PARAM]?.slice(0, MAX_ECHOED_LENGTH) || null,
    image: upload.image,
  };
}

type Answer = { saveError?: SaveError; errors?: Record<string, string>; imageError?: string; hidden?: Record<string, string> };

/** The page's action data: the form as it was, and what to say about it. */
function calculatorData(post: CalculatorPost, status: number, answer: Answer = {}) {
  return data(
    {
      saveError: answer.saveError ?? null,
      values: post.values,
      evaluation: evaluateCalculator(post.values),
      hidden: answer.hidden ?? post.hidden,
      errors: answer.errors ?? {},
      projectId: post.projectId,
      imageError: answer.imageError ?? null,
    },
    { status },
  );
}

/** The no-JS image upload or removal: the form comes back with the new image path, or with the reason next to the image. */
export async function calculatorImageReply(post: CalculatorPost, result: Result<{ productImagePath: string }>) {
  if (result.kind === 'ok') return calculatorData(post, 200, { hidden: { ...post.hidden, productImagePath: result.value.productImagePath } });
  return calculatorData(post, FAILURE_STATUS[result.kind], { imageError: await failureMessage(result) });
}

/**
 * A save: the saved project with the §8 toast, or the form with the refusal's toast text and the fields' messages.
 * 'Angebot erstellen' (QUOTE_INTENT) saves the same way and, once saved, goes on to the new quote from the project.
 */
export async function calculatorSaveReply(post: CalculatorPost, result: Result<SavedProject>) {
  const t = await getServerT(['projects', 'quotes', 'calculator']);
  if (result.kind === 'ok' && post.intent === QUOTE_INTENT) {
    const { id, name, created } = result.value;
    // A fragment of its own: without one the browser keeps the form's (#projekt-speichern) across the redirect.
    return redirectWithToast(`/angebote/neu?${new URLSearchParams({ project: id })}#new-quote`, {
      title: t(created ? 'projects:toast.saved' : 'projects:toast.updated'),
      description: t('quotes:new.savedForQuote', { name }),
    });
  }
  if (result.kind === 'ok') {
    const { id, name, created } = result.value;
    return redirectWithToast(`/calculator?${PROJECT_PARAM}=${id}`, {
      title: t(created ? 'toast.saved' : 'toast.updated'),
      description: t(created ? 'toast.savedText' : 'toast.updatedText', { name }),
    });
  }
  const errors = result.kind === 'fieldErrors' ? Object.fromEntries(Object.entries(result.errors).map(([name, keys]) => [name, keys[0]])) : {};
  const refusal = saveError(t, result, post.values, errors);
  // The free plan's limit, met on the way to a quote: say why a quote needs the save.
  if (result.kind === 'forbidden' && post.intent === QUOTE_INTENT) refusal.text = `${refusal.text} ${t('quotes:new.limitForQuote')}`;
  return calculatorData(post, FAILURE_STATUS[result.kind], { saveError: refusal, errors });
}

function saveError(t: (key: string) => string, failure: Failure, values: CalculatorRawValues, errors: Record<string, string>): SaveError {
  switch (failure.kind) {
    case 'unauthorized':
      return {
        title: t('toast.signInRequired'),
        text: t('toast.signInRequiredText'),
        action: { label: t('calculator.signIn'), href: `/auth?${new URLSearchParams({ redirectTo: `/calculator?${rawValuesToSearchParams(values)}` })}` },
      };
    case 'fieldErrors': {
      if (errors.projectName === 'calculator:errors.projectNameRequired') return { title: t('toast.nameRequired'), text: t('toast.nameRequiredText') };
      // A hidden field (a library choice, the image) has no place for its message: the save box says it.
      const hidden = HIDDEN_PROJECT_FIELDS.find((name) => errors[name]);
      return { title: t('toast.saveError'), text: hidden ? t(errors[hidden]!) : t('toast.saveErrorText') };
    }
    case 'forbidden':
      return { title: t('limit.title'), text: t('limit.text'), action: { label: t('limit.upgrade'), href: '/premium' } };
    case 'notFound':
      // The project was deleted meanwhile (or never was the user's).
      return { title: t('toast.saveError'), text: t('calculator.notFound') };
    default:
      return { title: t('toast.saveError'), text: t('toast.saveErrorText') };
  }
}
