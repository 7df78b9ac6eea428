import { readFormData } from '~/web/form-data.server';
import { parseSubmission } from '~/web/form-submission.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useRevalidator } from '@remix-run/react';
import { ArrowLeft, Camera, CircleUserRound } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { BUSINESS_DETAILS_INTENT, BusinessDetailsCard } from '~/components/quotes/business-details-card';
import { businessDetailsSchema } from '~/domain/quotes';
import { CALCULATOR_DEFAULTS_ANCHOR, CalculatorDefaultsCard } from '~/components/calculator-defaults-card';
import { CALCULATOR_DEFAULTS_INTENT, calculatorDefaultsSchema } from '~/domain/calculator-defaults';
import { calculatorDefaultsFormValues, defaultItemOptions, getCalculatorDefaults, saveCalculatorDefaults } from '~/models/calculator-defaults.server';
import { businessDetailsFormValues, getBusinessDetails, saveBusinessDetails } from '~/models/quotes.server';
import { showToast } from '~/components/toaster';
import { buttonClassName } from '~/components/ui/button-link';
import { FormAlert, PasswordField, SubmitButton, TextField, inputClassName } from '~/components/ui/field';
import { getServerT } from '~/i18n.server';
import { changePasswordSchema, profileSchema } from '~/domain/auth-schemas';
import { toPublicUser } from '~/models/users.server';
import { cancelOwnEmailChange, changeOwnPassword, changeProfilePicture, saveProfile } from '~/models/profile.server';
import { andThen } from '~/domain/result';
import { endSession, requireUserContext } from '~/services/auth.server';
import { deleteOwnAccount } from '~/models/account-self-service.server';
import { AccountDataCards } from '~/components/account-data-cards';
import { SectionStatus } from '~/components/section-status';
import { readProfileImageForm } from '~/web/image-upload.server';
import { pageMessageResult, pageResult } from '~/web/result-response.server';
import { PROFILE_IMAGE_MAX_BYTES } from '~/domain/limits';
import { prepareProfileImage, profileImageErrorKeys, uploadProfileImage } from '~/domain/profile-image-upload';
import { redirectWithToast } from '~/web/toast.server';
import { businessLogoRemoveReply, businessLogoUploadReply, isLogoUpload, LOGO_REMOVE_INTENT } from '~/web/business-logo.server';
import { useHydrated } from '~/lib/use-hydrated';

export const handle = { i18n: ['account', 'auth', 'admin', 'quotes', 'project-tools', 'calculator'] };

const MAX_MB = PROFILE_IMAGE_MAX_BYTES / 1024 / 1024;

export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireUserContext(args);
  const t = await getServerT('account');
  const details = await getBusinessDetails(ctx);
  const businessDetails = businessDetailsFormValues(details);
  // 'Meine Standardwerte' (issue 24 §4): the stored values and the user's active library items to choose from.
  const calculatorDefaults = calculatorDefaultsFormValues(await getCalculatorDefaults(ctx));
  const defaultItems = await defaultItemOptions(ctx);
  return { user: toPublicUser(ctx.user), businessDetails, businessLogo: details?.logoPath ?? null, calculatorDefaults, defaultItems, meta: { title: t('profile.metaTitle') } };
}

export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const ctx = await requireUserContext(args);
  const t = await getServerT(['account', 'auth']);

  // The quote logo's form posts to /profile?logo (issue 26); the picture form is the other multipart one (intent=uploadImage).
  if (isLogoUpload(request)) return businessLogoUploadReply(ctx, request);
  if (request.headers.get('content-type')?.toLowerCase().startsWith('multipart/form-data')) {
    const image = await readProfileImageForm(request);
    return pageMessageResult(await andThen(image, (bytes) => changeProfilePicture(ctx, bytes)), () => ({
      redirectTo: '/profile',
      toast: { type: 'success', title: t('account:profile.toast.pictureUpdated'), description: t('auth:messages.profileImageUpdated') },
    }), { extra: { intent: 'uploadImage' as const } });
  }

  const formData = await readFormData(request);
  const intent = formData.get('intent');

  if (intent === 'changePassword') {
    const submission = parseSubmission(formData, changePasswordSchema);
    const hideFields = ['currentPassword', 'newPassword', 'confirmPassword'];
    if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields }) }, { status: 400 });
    return pageResult(submission, await changeOwnPassword(ctx, submission.value), () => ({
      // Without scripts the browser keeps the form's #passwort across this redirect (a Location without a fragment
      // inherits it), so the card shows the message there (section).
      redirectTo: '/profile',
      toast: { type: 'success', title: t('account:profile.toast.passwordChanged'), description: t('auth:messages.passwordChanged'), section: 'passwort' },
    }), { hideFields, extra: { intent } });
  }

  if (intent === 'updateProfile') {
    const submission = parseSubmission(formData, profileSchema);
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 });
    return pageResult(submission, await saveProfile(ctx, submission.value), ({ emailChanged }) => ({
      redirectTo: '/profile',
      toast: {
        type: 'success',
        title: t('account:profile.toast.profileUpdated'),
        description: t(emailChanged ? 'auth:messages.profileUpdatedVerify' : 'auth:messages.profileUpdated'),
      },
    }), { extra: { intent } });
  }

  if (intent === 'deleteAccount') {
    const currentPassword = String(formData.get('currentPassword') ?? '');
    const tx = await getServerT(['admin', 'auth']);
    if (!currentPassword) return data({ intent, formError: tx('auth:errors.currentPasswordRequired') }, { status: 400 });
    return pageMessageResult(await deleteOwnAccount(ctx, { currentPassword: currentPassword.slice(0, 1024) }), async () => ({
      redirectTo: '/',
      toast: { type: 'success', title: tx('admin:ownAccount.deletedTitle'), description: tx('admin:ownAccount.deleted') },
      headers: { 'Set-Cookie': await endSession(request) },
    }), { extra: { intent } });
  }

  // Geschäftsdaten for quotes (issue 26 §1).
  if (intent === BUSINESS_DETAILS_INTENT) {
    const submission = parseSubmission(formData, businessDetailsSchema);
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 });
    const tq = await getServerT('quotes');
    return pageResult(submission, await saveBusinessDetails(ctx, submission.value), () => ({
      redirectTo: '/profile#geschaeftsdaten',
      toast: { type: 'success', title: tq('business.saved'), description: tq('business.savedDescription'), section: 'geschaeftsdaten' },
    }), { extra: { intent } });
  }

  if (intent === LOGO_REMOVE_INTENT) return businessLogoRemoveReply(ctx);

  // Meine Standardwerte (issue 24 §4).
  if (intent === CALCULATOR_DEFAULTS_INTENT) {
    const submission = parseSubmission(formData, calculatorDefaultsSchema);
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 });
    const td = await getServerT('project-tools');
    return pageResult(submission, await saveCalculatorDefaults(ctx, submission.value), () => ({
      redirectTo: `/profile#${CALCULATOR_DEFAULTS_ANCHOR}`,
      toast: { type: 'success', title: td('defaults.saved'), description: td('defaults.savedDescription'), section: CALCULATOR_DEFAULTS_ANCHOR },
    }), { extra: { intent } });
  }

  if (intent === 'cancelEmailChange') {
    await cancelOwnEmailChange(ctx);
    return redirectWithToast('/profile', {
      type: 'success',
      title: t('account:profile.toast.emailChangeCancelled'),
      description: t('auth:messages.emailChangeCancelled'),
    });
  }

  throw new Response(t('auth:messages.invalidRequest'), { status: 400 });
}

export default function ProfilePage() {
  const { t } = useTranslation('account');
  // After a save (a redirect back here) the forms start again from the stored values.
  const { key } = useLocation();
  return (
    <main className="mx-auto max-w-3xl px-4 py-6 sm:py-8">
      <Link to="/calculator" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('profile.back')}
      </Link>
      <h1 className="mt-3 text-2xl font-bold sm:text-3xl">{t('profile.title')}</h1>
      <div className="mt-6 space-y-6">
        <ProfileCard key={`profile-${key}`} />
        {/* Before the password card: a password change without scripts opens at #passwort, and as the last card
            it cannot scroll up under the toast (toasts-and-privacy.spec.ts). */}
        <CalculatorDefaultsSection key={`defaults-${key}`} />
        <BusinessDetailsSection key={`business-${key}`} />
        <OwnAccountCards />
        <PasswordCard key={`password-${key}`} />
      </div>
    </main>
  );
}

function usePendingIntent(intent: string) {
  const navigation = useNavigation();
  if (navigation.state === 'idle' || navigation.formMethod?.toLowerCase() !== 'post') return false;
  const submitted = navigation.formData?.get('intent');
  return submitted === intent;
}

const cardClass = 'rounded-card border border-surface-line bg-surface p-5 shadow-card sm:p-6';

function ProfileCard() {
  const { t } = useTranslation('account');
  const { user } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = usePendingIntent('updateProfile');
  const [form, fields] = useForm({
    id: 'profile',
    lastResult: actionData?.intent === 'updateProfile' ? actionData.result : undefined,
    defaultValue: { firstName: user.firstName ?? '', lastName: user.lastName ?? '', email: user.email },
    constraint: getZodConstraint(profileSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
  });

  return (
    <section aria-labelledby="profile-info-title" className={cardClass}>
      <h2 id="profile-info-title" className="text-lg font-semibold text-ink">
        {t('profile.infoTitle')}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t('profile.infoIntro')}</p>
      <ProfilePicture />
      <FormAlert id={form.errorId} errors={form.errors} title={t('profile.toast.error')} />
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="updateProfile" />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t('fields.firstName')} meta={fields.firstName} autoComplete="given-name" />
          <TextField label={t('fields.lastName')} meta={fields.lastName} autoComplete="family-name" />
        </div>
        <TextField
          label={t('fields.email')}
          meta={fields.email}
          type="email"
          autoComplete="email"
          hint={user.emailVerified ? t('profile.emailChangeHint') : t('profile.emailUnverified')}
        />
        <div className="flex justify-end">
          <SubmitButton pending={pending} pendingLabel={t('profile.savePending')}>
            {t('profile.save')}
          </SubmitButton>
        </div>
      </Form>
      {user.pendingEmail ? (
        <Form method="post" className="mt-4 flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="pending-email">
          <p className="min-w-0 flex-1 break-words">{t('profile.pendingEmail', { email: user.pendingEmail, current: user.email })}</p>
          <input type="hidden" name="intent" value="cancelEmailChange" />
          <button type="submit" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
            {t('profile.cancelEmailChange')}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

/**
 * Without JavaScript: a multipart form posting the file to this route's
 * action. With it: the change-picture button opens the file picker, the browser
 * checks and (PNG) converts the file and runs the spec's upload flow.
 */
function ProfilePicture() {
  const { t } = useTranslation(['account', 'auth']);
  const { user } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const inputRef = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [clientError, setClientError] = useState<string | null>(null);
  const pending = usePendingIntent('uploadImage') || uploading;
  const serverError = actionData?.intent === 'uploadImage' && 'formError' in actionData ? actionData.formError : null;
  const error = clientError ?? serverError;

  async function onFileChosen(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    setClientError(null);
    const prepared = await prepareProfileImage(file, PROFILE_IMAGE_MAX_BYTES);
    if (!prepared.ok) {
      const message = t(profileImageErrorKeys[prepared.error], { n: MAX_MB });
      setClientError(message);
      showToast({ type: 'error', title: t('account:profile.toast.error'), description: message });
      return;
    }
    setUploading(true);
    const result = await uploadProfileImage(prepared.blob);
    setUploading(false);
    if (!result.ok) {
      const message = result.message ?? t('auth:messages.profileImageFailed');
      setClientError(message);
      showToast({ type: 'error', title: t('account:profile.toast.error'), description: message });
      return;
    }
    revalidator.revalidate();
    showToast({ type: 'success', title: t('account:profile.toast.pictureUpdated'), description: t('auth:messages.profileImageUpdated') });
  }

  return (
    <div className="mt-5 flex flex-col gap-4 sm:flex-row sm:items-center">
      {user.profileImageUrl ? (
        <img
          src={user.profileImageUrl}
          alt={t('account:profile.pictureAlt')}
          data-profile-picture
          className="size-24 shrink-0 rounded-full border border-surface-line bg-surface-subtle object-cover"
        />
      ) : (
        <span role="img" aria-label={t('account:profile.noPicture')} className="flex size-24 shrink-0 items-center justify-center rounded-full bg-surface-subtle text-ink-faint">
          <CircleUserRound aria-hidden="true" className="size-16" strokeWidth={1.25} />
        </span>
      )}
      <Form method="post" encType="multipart/form-data" className="min-w-0 flex-1 space-y-2">
        <input type="hidden" name="intent" value="uploadImage" />
        {/* One input in both modes (only its attributes change on hydration), so a chosen file is never swapped away.
            The label is read out, not shown (the section says what it is about), and the file field and its button
            share one row on every width: so the no-JS controls take the height of the scripted button, and nothing
            below moves when a phone hydrates (the new user's review measured a 74 px jump at 390 px). */}
        <label htmlFor="profile-image" className="sr-only">
          {t('account:profile.changePicture')}
        </label>
        <div className="flex flex-row items-center gap-2">
          <input
            ref={inputRef}
            id="profile-image"
            type="file"
            name="image"
            accept="image/jpeg,image/png"
            onChange={onFileChosen}
            className={hydrated ? 'sr-only' : `${inputClassName} min-w-0 flex-1 py-1.5 text-sm`}
            tabIndex={hydrated ? -1 : undefined}
            aria-hidden={hydrated ? true : undefined}
            aria-describedby="profile-image-hint"
          />
          {hydrated ? (
            <button
              type="button"
              disabled={pending}
              onClick={() => inputRef.current?.click()}
              className={buttonClassName({ variant: 'secondary', className: 'shrink-0' })}
            >
              <Camera aria-hidden="true" className="size-4" />
              {pending ? t('account:profile.uploadPending') : t('account:profile.changePicture')}
            </button>
          ) : (
            <SubmitButton pending={pending} pendingLabel={t('account:profile.uploadPending')} variant="secondary" className="shrink-0">
              {t('account:profile.uploadSubmit')}
            </SubmitButton>
          )}
        </div>
        <p id="profile-image-hint" className="text-xs text-ink-muted">
          {t('account:profile.pictureFile')}
        </p>
        {error ? (
          <p role="alert" className="text-sm text-danger-700">
            {error}
          </p>
        ) : null}
      </Form>
    </div>
  );
}

function OwnAccountCards() {
  const actionData = useActionData<typeof action>();
  const pending = usePendingIntent('deleteAccount');
  const deleteError = actionData?.intent === 'deleteAccount' && 'formError' in actionData ? String(actionData.formError) : null;
  return <AccountDataCards deleteError={deleteError} pending={pending} />;
}

function BusinessDetailsSection() {
  const { businessDetails, businessLogo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const logoError = (actionData?.intent === 'uploadLogo' || actionData?.intent === 'removeLogo') && 'formError' in actionData ? String(actionData.formError) : null;
  return (
    <BusinessDetailsCard
      details={businessDetails}
      logo={businessLogo}
      logoError={logoError}
      lastResult={actionData?.intent === BUSINESS_DETAILS_INTENT && 'result' in actionData ? actionData.result : undefined}
    />
  );
}

function CalculatorDefaultsSection() {
  const { calculatorDefaults, defaultItems } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <CalculatorDefaultsCard
      values={calculatorDefaults}
      options={defaultItems}
      lastResult={actionData?.intent === CALCULATOR_DEFAULTS_INTENT && 'result' in actionData ? actionData.result : undefined}
    />
  );
}

function PasswordCard() {
  const { t } = useTranslation('account');
  const actionData = useActionData<typeof action>();
  const pending = usePendingIntent('changePassword');
  const [form, fields] = useForm({
    id: 'change-password',
    lastResult: actionData?.intent === 'changePassword' ? actionData.result : undefined,
    constraint: getZodConstraint(changePasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
  });
  return (
    <section id="passwort" aria-labelledby="password-title" className={cardClass}>
      <h2 id="password-title" className="text-lg font-semibold text-ink">
        {t('profile.passwordTitle')}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t('profile.passwordIntro')}</p>
      <SectionStatus section="passwort" className="mt-4" />
      <div className="mt-4">
        <FormAlert id={form.errorId} errors={form.errors} title={t('profile.toast.error')} />
      </div>
      {/* Without scripts the answer is a new page: it opens at this card (far down on a phone), where its errors are. */}
      <Form method="post" action="/profile#passwort" {...getFormProps(form)} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="changePassword" />
        <PasswordField label={t('fields.currentPassword')} meta={fields.currentPassword} autoComplete="current-password" />
        <PasswordField label={t('fields.newPassword')} meta={fields.newPassword} autoComplete="new-password" hint={t('fields.passwordHint')} />
        <PasswordField label={t('fields.confirmPassword')} meta={fields.confirmPassword} autoComplete="new-password" />
        <div className="flex justify-end">
          <SubmitButton pending={pending} pendingLabel={t('profile.changePending')}>
            {t('profile.changePassword')}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.meta.title }, { name: 'robots', content: 'noindex' }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
