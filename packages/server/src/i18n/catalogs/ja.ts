import type { Catalog } from './catalog.js';

/** Japanese, in the polite form (です・ます) of identity products' sign-in pages (catalog.ts). */
export const ja: Catalog = {
  messages: {
    'layout.title': '{page} · {product}',
    'layout.product-title': '{product}',
    'layout.footer': '{product} により保護されています · OAuth 2.0 認可サーバー',
    'layout.languages': '言語',
    'error.details': '詳細(アプリケーションに送信された内容)',
    'error.what-to-do': '対処方法',
    'error.try-again': 'もう一度試す',
    'error.fine-print': 'エラー <code>{error}</code> · HTTP {status} · <link>このエラーについて</link>',
    'error.not-found.title': 'ページが見つかりません',
    'error.not-found.detail': '{path} にページはありません。',
    'error.not-found.action':
      'アドレスを確認するか、<link>ホームページ</link>でこのサーバーが提供する内容をご確認ください。',
    'form-post.title': 'アプリケーションに戻っています',
    'form-post.no-script': 'お使いのブラウザーではここでスクリプトが実行されないため、手動で続行してください。',
    'form-post.continue': '続行',
    'client.claim': '「{name}」と名乗っています(誰も確認していない名前です)',
    'client.links': 'アプリケーションについて',
    'client.link.home': 'ウェブサイト',
    'client.link.policy': 'プライバシーポリシー',
    'client.link.terms': '利用規約',
    'client.any': 'アプリケーション',
    'common.signed-in-as': '<b>{username}</b> としてサインイン中',
    'sign-in.title': 'サインイン',
    'sign-in.lead.account': 'アカウントにサインイン',
    'sign-in.lead.client': '<app>{client}</app> に進むためにサインイン',
    'sign-in.username': 'ユーザー名',
    'sign-in.password': 'パスワード',
    'sign-in.submit': 'サインイン',
    'sign-in.next.consent': '次に、{client} がアカウントで行えることを選択します。',
    'sign-in.next.account': 'アカウントを利用できるアプリケーションと、サインイン方法が表示されます。',
    'sign-in.upstreams.title': 'または組織のアカウントでサインイン',
    'sign-in.upstreams.email': '勤務先のメールアドレス',
    'sign-in.upstreams.continue': '続行',
    'sign-in.upstreams.provider': '{provider} でサインイン',
    'sign-in.alert.check': '入力内容を確認して、もう一度お試しください。',
    'sign-in.alert.passkey': 'もう一度試すか、パスワードを使用してください。',
    'sign-in.alert.wait-seconds': '{seconds, plural, other {# 秒}}後にもう一度お試しください。',
    'sign-in.alert.wait-minutes': '{minutes, plural, other {# 分}}後にもう一度お試しください。',
    'passkey.or': 'または',
    'passkey.sign-in': 'パスキーでサインイン',
    'passkey.confirm': 'パスキーで確認',
    'passkey.use': 'パスキーを使用',
    'passkey.checking': 'パスキーを確認しています…',
    'passkey.not-used': 'パスキーは使用されませんでした。もう一度試すか、パスワードを使用してください。',
    'passkey.failed': 'ここではパスキーが機能しませんでした。ページを再読み込みして、もう一度お試しください。',
    'passkeys.title': 'パスキー',
    'passkeys.none':
      'パスキーはまだありません。パスキーを使うと、指紋、顔、画面ロック、セキュリティキーでパスワードなしにサインインできます。',
    'passkeys.added': '{added} に追加',
    'passkeys.not-used': '未使用',
    'passkeys.last-used': '最終使用: {when}',
    'passkeys.synced': '同期済み',
    'passkeys.rename-label': '{name} の新しい名前',
    'passkeys.rename': '名前を変更',
    'passkeys.remove': 'パスキーを削除',
    'passkeys.name-label': '新しいパスキーの名前(任意)',
    'passkeys.name-placeholder': '仕事用ノートパソコン',
    'passkeys.add': 'パスキーを追加',
    'factor.title': '2 段階認証',
    'factor.other-ways': 'その他の確認方法',
    'factor.verify': '確認',
    'factor.label.otp': '認証アプリのコード',
    'factor.label.recovery-code': 'リカバリーコード',
    'factor.label.passkey': 'パスキー',
    'factor.alert.replayed': 'このコードは使用済みです。次のコードをお待ちください。',
    'factor.alert.wrong-recovery-code': 'このリカバリーコードは間違っているか、使用済みです。',
    'factor.alert.enrolment-refused': 'アプリケーションからやり直してください。',
    'factor.alert.check': 'コードを確認して、もう一度お試しください。',
    'enrol.title': '2 段階認証の設定',
    'enrol.reason':
      '<app>{client}</app> に進むには、サインインに 2 つ目のステップが必要です。パスワードの後に、スマートフォンのアプリに表示されるコードを入力します。',
    'enrol.scan':
      '認証アプリ(Google Authenticator、1Password、Aegis など)でこのコードをスキャンし、表示される 6 桁のコードを入力してください。',
    'enrol.qr': '認証アプリ用の QR コード',
    'enrol.cannot-scan': 'スキャンできない場合は、このキーをアプリに入力してください:',
    'enrol.code': 'アプリのコード',
    'enrol.submit': '2 段階認証を有効にする',
    'enrol.not-now': '今はしない: アカウントに戻る',
    'recovery.title': 'リカバリーコード',
    'recovery.heading': 'リカバリーコードを保存してください',
    'recovery.lead':
      '認証アプリを紛失した場合、各コードで 1 回サインインできます。安全な場所に保管してください。表示されるのは今回だけです。',
    'recovery.continue': '保存しました。続行',
    'consent.title': '{client} を許可しますか?',
    'consent.heading': '<app>{client}</app> がアカウントへのアクセスを求めています',
    'consent.document-note':
      '<b>このアプリケーションは管理者によって追加されたものではありません。</b> <site>{host}</site> から自身を説明しており、{product} が確認できたのはそれだけです。このサイトを信頼できる場合にのみ許可してください。',
    'consent.self-registered':
      '<b>このアプリケーションは自身で登録されました。</b> 管理者が追加したものではないため、名前は確認されていません。ご自身で起動した場合にのみ許可してください。',
    'consent.no-access': '{client} はサインインしていることだけを確認します。データへのアクセス権は得ません。',
    'consent.will-allow': '{client} に次のことを許可します:',
    'consent.deny': '拒否',
    'consent.allow': '許可',
    'consent.organization': '組織: {organization}',
    'organizations.choose.title': '組織の選択',
    'organizations.choose.lead': 'どの組織として {client} にサインインしますか?',
    'consent.fine-print':
      'どちらを選んでも <b>{destination}</b> に戻ります。アクセスは後から<account>アカウントページ</account>で取り消せます。',
    'scope.openid': 'アカウントでサインインする',
    'scope.profile': '名前、ユーザー名、言語を表示する',
    'scope.email': 'メールアドレスと、その確認状況を表示する',
    'scope.offline-access': '不在中もアクセスを維持する',
    'scope.read': '{things} を表示する',
    'scope.write': '{things} を作成、変更、削除する',
    'device.title': 'デバイスを接続',
    'device.lead': 'デバイスに表示されているコードを入力してください。',
    'device.code': 'コード',
    'device.code-placeholder': 'XXXX-XXXX',
    'device.continue': '続行',
    'device.fine-print': 'ご自身で設定しているデバイスのコードだけを入力してください。',
    'device.check-code': 'デバイスに <usercode>{userCode}</usercode> と表示されていることを確認してください',
    'device.consent-fine-print':
      'コードが異なる場合や、デバイスでこの操作を始めていない場合は「拒否」を選んでください。アクセスは後から<account>アカウントページ</account>で取り消せます。',
    'device.connected.title': 'デバイスを接続しました',
    'device.connected.text':
      '{client} がアクセスできるようになりました。デバイスに戻ってください。自動的に続行されます。',
    'device.denied.title': 'アクセスを拒否しました',
    'device.denied.text': '{client} にアクセスは許可されませんでした。このページは閉じてかまいません。',
    'device.alert.check': 'デバイスのコードを確認して、もう一度入力してください。',
    'logout.title': 'サインアウト',
    'logout.heading': '{product} からサインアウトしますか?',
    'logout.not-signed-in': 'サインインしていません。',
    'logout.asked-by': '<app>{client}</app> がサインアウトを求めています。',
    'logout.lead': '次にアプリケーションからここに移動したときは、もう一度サインインします。',
    'logout.submit': 'サインアウト',
    'logout.account': 'アカウント',
    'signed-out.title': 'サインアウトしました',
    'signed-out.heading': 'サインアウトしました',
    'signed-out.lead':
      'このウィンドウは閉じてかまいません。ご利用のアプリケーションでは、もう一度サインインを求められます。',
    'account.title': 'アカウント',
    'account.apps.none': 'アカウントにアクセスできるアプリケーションはありません。',
    'account.apps.title': 'アカウントにアクセスできるアプリケーション',
    'account.apps.dates': '{since} から許可 · 最終使用: {used}',
    'account.apps.remove': 'アクセスを削除',
    'account.fine-print':
      'アクセスを削除すると、そのアプリケーションは直ちにサインアウトされ、トークンは使えなくなります。',
    'account.sign-out': 'サインアウト',
    'account.linked.title': 'サインインに使う ID プロバイダー',
    'account.linked.since': '{since} からリンク',
    'account.linked.unlink': 'リンクを解除',
    'account.notice.access-removed':
      'アクセスを削除しました。このアプリケーションはアカウントを使用できなくなりました。',
    'account.notice.access-removed-named':
      'アクセスを削除しました。{client} はアカウントを使用できなくなり、トークンも使えなくなりました。',
    'account.notice.two-step-on': '2 段階認証が有効になりました。リカバリーコードは安全な場所に保管してください。',
    'account.notice.two-step-off': '認証アプリを無効にしました。リカバリーコードも使えなくなりました。',
    'account.notice.recovery-codes': '新しいリカバリーコードを作成しました。以前のコードは使えなくなりました。',
    'account.notice.passkey-added': 'パスキーを追加しました。パスワードなしでサインインできます。',
    'account.notice.passkey-renamed': 'パスキーの名前を変更しました。',
    'account.notice.passkey-removed': 'パスキーを削除しました。このパスキーではサインインできなくなりました。',
    'account.notice.language': '言語を保存しました。',
    'account.language.title': '言語',
    'account.language.label': 'このページと、言語を尋ねるアプリケーションで使う言語',
    'account.language.automatic': 'ブラウザーの設定に従う',
    'account.language.save': '言語を保存',
    'security.title': 'サインイン方法',
    'security.on-app':
      '2 段階認証は<b>オン</b>です: {since} から認証アプリのコードを使用しています。リカバリーコードは残り {codes, plural, other {# 個}}です。',
    'security.on-app-passkeys':
      '2 段階認証は<b>オン</b>です: {since} から認証アプリのコードと {passkeys, plural, other {# 個のパスキー}}を使用しています。リカバリーコードは残り {codes, plural, other {# 個}}です。',
    'security.on-passkeys': '2 段階認証は<b>オン</b>です: {passkeys, plural, other {# 個のパスキー}}。',
    'security.off': '2 段階認証は<b>オフ</b>です。',
    'security.confirm':
      '<b>変更するには本人確認が必要です。</b> 2 段階認証の設定・無効化や、パスキーの追加・名前変更・削除には、{minutes, plural, other {# 分}}以内のサインインが必要です。',
    'security.confirm-submit': '本人確認',
    'security.add-app': '認証アプリを追加',
    'security.set-up': '2 段階認証を設定',
    'security.new-codes': '新しいリカバリーコード',
    'security.turn-off': 'オフにする',
    'link.title': 'アカウントをリンク',
    'link.lead':
      '<b>{provider}</b> から提供されたメールアドレスは、既にこちらのアカウントで使われています。ご自身のアカウントであればパスワードを入力すると、今後は <b>{provider}</b> でサインインできます。',
    'link.lead-passkey':
      '<b>{provider}</b> から提供されたメールアドレスは、既にこちらのアカウントで使われています。ご自身のアカウントであればパスワードを入力するかパスキーを使用すると、今後は <b>{provider}</b> でサインインできます。',
    'link.password': 'そのアカウントのパスワード',
    'link.submit': 'リンクして続行',
    'link.passkey': 'そのアカウントのパスキーを使用',
    'link.fine-print':
      'ご自身のアカウントではありませんか? このウィンドウを閉じてください。アカウントのパスワードかパスキーがなければ、何もリンクされません。',
    'link.alert.wrong-password': 'パスワードが正しくありません',
    'link.alert.check': 'リンクされませんでした。パスワードを確認して、もう一度お試しください。',
    'link.alert.passkey': 'リンクされませんでした。もう一度パスキーを試すか、パスワードを使用してください。',
    'continue.title': 'サインインしました',
    'continue.lead': 'アプリケーションに戻っています…',
    'continue.button': '続行',
    'landing.lead':
      '<b>{issuer}</b> の OAuth 2.0 認可サーバー兼 OpenID プロバイダーです。アプリケーションはサインインとアカウントへのアクセス許可のために、ここへあなたを案内します。',
    'landing.account': 'アカウント',
    'landing.account.what': '許可したアプリケーションとサインアウト',
    'landing.openid': 'OpenID プロバイダーの設定',
    'landing.openid.what': 'OpenID Connect Discovery 1.0',
    'landing.metadata': '認可サーバーのメタデータ',
    'landing.metadata.what': 'RFC 8414: エンドポイント、グラント、スコープ',
    'landing.jwks': '署名鍵',
    'landing.jwks.what': 'トークンの公開鍵(JWKS)',
    'landing.api': 'REST API',
    'landing.api.what': '{prefix} の OpenAPI ドキュメント',
    'landing.fine-print': '開発者の方へ: まずメタデータをご覧ください。各エラーには説明ページへのリンクがあります。',
    'problems.status': 'HTTP {status}',
    'problems.transient': '一時的: 同じリクエストが後で成功する可能性があります',
    'problems.permanent': '恒久的: 再試行しても再び失敗します',
    'problems.wire-title': 'レスポンスでの <code>title</code>: <wire>{title}</wire>',
    'problems.client-action': 'クライアントが行うべきこと',
    'problems.reasons': '理由ごとの <code>error_description</code>',
    'problems.every-error': 'すべてのエラー',
    'problems.home': 'ホーム',
    'problems.index.title': 'エラー',
    'problems.index.lead':
      'このサーバーが返すすべてのエラーと、クライアントが行うべきこと。OAuth エラーは <code>error_uri</code> で、問題(RFC 9457)は <code>type</code> でそのページを示します。',
    'problems.index.oauth': 'OAuth 2.0 エラーとその理由',
    'problems.index.problems': '問題(<code>application/problem+json</code>)',
    'demo.served': 'サーバーが <code>--demo</code> で動作しているため表示されています。',
    'demo.no-code.title': 'コードなし',
    'demo.no-code.heading': '認可コードがありません',
    'demo.no-code.summary': '認可リクエストは、このページで使えるコードなしで戻ってきました。',
    'demo.no-code.again': '<code>npm start</code> が表示した認可 URL からやり直してください。',
    'demo.code.title': '認可コード',
    'demo.code.heading': '認可コードを受け取りました',
    'demo.code.lead': '認可サーバーがブラウザーをデモのリダイレクト URI であるこのページに戻しました。',
    'demo.code.exchange': '{seconds, plural, other {# 秒}}以内に交換してください',
    'demo.code.verifier':
      '認可リクエストの <code>code_verifier</code>(開いた URL の横に表示されたもの)を入力してください。',
    'demo.code.once': 'このコードは 1 回だけ使えます。',
    'demo.refused.title': '交換が拒否されました',
    'demo.refused.heading': 'コードの交換が拒否されました',
    'demo.refused.summary': 'このページはデモの公開クライアントとしてコードを /token に送り、次の応答を受け取りました:',
    'demo.refused.again': '<code>npm start</code> が表示した OpenID Connect の URL からやり直してください。',
    'demo.signed-in.title': 'サインインしました',
    'demo.signed-in.heading': 'OpenID Connect でサインインしました',
    'demo.signed-in.lead':
      'このページはデモの公開クライアントとして /token でコードを交換し、スコープ <code>{scope}</code> の ID トークンを取得しました。そのクレーム:',
    'demo.signed-in.nonce-ok': 'nonce は表示されたリクエストのものと一致します。',
    'demo.signed-in.nonce-wrong': 'nonce は表示されたリクエストのものと一致しません。',
    'demo.signed-in.check':
      'クライアントはトークンの署名を <link>/jwks</link> の鍵で、クレームを OIDC Core §3.1.3.7 に従って検証します。このページは表示するだけです。',
    'demo.signed-in.userinfo': 'アクセストークンで /userinfo に問い合わせる',
    'sign-in.forgot-password': 'パスワードをお忘れですか?',
    'reset.title': 'パスワードの再設定',
    'reset.lead':
      'アカウントのユーザー名またはメールアドレスを入力してください。新しいパスワードを設定するためのリンクを、アカウントのメールアドレスに送信します。',
    'reset.identifier': 'ユーザー名またはメールアドレス',
    'reset.submit': 'リンクを送信',
    'reset.back': 'サインインに戻る',
    'reset.sent.title': 'メールを確認してください',
    'reset.sent.lead':
      '入力内容に一致し、メールアドレスが登録されているアカウントがあれば、新しいパスワードを設定するためのリンクをそのアドレスに送信しました。リンクは{minutes, plural, other {#分}}以内に一度だけ使えます。',
    'reset.sent.spam':
      '数分たっても届かない場合は、迷惑メールフォルダーを確認するか、入力内容を見直すか、管理者にお問い合わせください。',
    'reset.new.title': '新しいパスワードを設定',
    'reset.new.lead': 'アカウント {username} のパスワードです。',
    'reset.new.password': '新しいパスワード',
    'reset.new.hint': '{min}文字以上。関連のない単語をいくつか組み合わせると、覚えやすく強力なパスワードになります。',
    'reset.new.code-why': 'このアカウントでは2段階認証が有効です。ご本人であることを確認してください。',
    'reset.new.code': '認証アプリのコード、またはリカバリーコード',
    'reset.new.submit': '新しいパスワードを設定',
    'reset.done.title': 'パスワードを変更しました',
    'reset.done.lead':
      '新しいパスワードを設定し、すべての場所からサインアウトしました。新しいパスワードでもう一度サインインしてください。',
    'reset.done.grants':
      'アカウントへのアクセス権を持っていたアプリケーションは、そのアクセス権を失いました。求められたら改めて許可してください。',
    'reset.done.sign-in': 'サインイン',
    'reset.alert.too-short': '8文字以上にしてください。',
    'reset.alert.too-long': '1024文字以内にしてください。',
    'reset.alert.too-common':
      'このパスワードはよく使われている、漏えいしている、またはアカウント情報から推測しやすいものです。関連のない単語をいくつか組み合わせてみてください。',
    'mail.footer': '{issuer} の {product} から送信されました。',
    'mail.reset.subject': 'パスワードの再設定',
    'mail.reset.lead':
      'アカウント {username} のパスワード再設定が依頼されました(おそらくご本人によるものです)。新しいパスワードを設定するには、{minutes, plural, other {#分}}以内にこのリンクを開いてください。リンクは一度だけ使えます。',
    'mail.reset.action': '新しいパスワードを設定',
    'mail.reset.ignore': '心当たりがない場合は、このメールを無視してください。パスワードは変更されません。',
    'account.email.title': 'メールアドレス',
    'account.email.verified': '{email} · 確認済み',
    'account.email.unverified': '{email} · 未確認です。アプリケーションが信頼できるように確認してください。',
    'account.email.send': '確認メールを送信',
    'account.email.enter-code': 'メールのコードを入力',
    'account.notice.verification-sent': '確認メールを送信しました。リンクとコードは24時間有効です。',
    'account.notice.verification-wait':
      '確認メールの依頼が多すぎます。最新のメールを開くか、しばらくしてからもう一度お試しください。',
    'account.notice.email-verified': 'メールアドレスが確認されました。',
    'verify.title': 'メールアドレスの確認',
    'verify.lead': '{email} がアカウント {username} のアドレスであることを確認してください。',
    'verify.submit': 'アドレスを確認',
    'verify.code.title': '確認コードの入力',
    'verify.code.lead': '{email} に送信した最新のメールにある6桁のコードを入力してください。',
    'verify.code.label': '確認コード',
    'verify.code.submit': '確認',
    'verify.code.check': '最新のメールのコードを確認して、もう一度お試しください。',
    'verify.back': 'アカウントに戻る',
    'verify.done.title': 'アドレスを確認しました',
    'verify.done.lead':
      '{email} は確認済みです。許可したアプリケーションは、このアドレスを信頼できるようになりました。',
    'mail.verify.subject': 'メールアドレスの確認',
    'mail.verify.lead': 'これがアカウント {username} のメールアドレスであることを確認してください。',
    'mail.verify.action': 'アドレスを確認',
    'mail.verify.code':
      'または、ページで求められたら次のコードを入力してください: {code}。リンクとコードは{hours}時間、一度だけ使えます。',
    'mail.verify.ignore': 'このアカウントに心当たりがない場合は、このメールを無視してください。',
    'invite.title': '招待を受ける',
    'invite.lead':
      '{email} のアドレスで {where} に招待されています。アカウントのユーザー名とパスワードを選んでください。',
    'invite.username': 'ユーザー名',
    'invite.username-hint': '64 文字以内: 英小文字 a–z、数字と . _ @ -。先頭は英字か数字。',
    'invite.password': 'パスワード',
    'invite.submit': 'アカウントを作成',
    'invite.alert.username-taken': 'そのユーザー名は使われています。別の名前を選んでください。',
    'invite.done.title': 'アカウントの準備ができました',
    'invite.done.lead':
      'アカウント {username} を作成し、アドレスを確認しました。新しいパスワードでサインインしてください。',
    'invite.member.lead': 'あなたのアカウント {username} で {where} に招待されています。',
    'invite.member.sign-in-first': 'まず {username} としてサインインし、メールのリンクをもう一度開いてください。',
    'invite.member.accept': '招待を受ける',
    'invite.joined.title': '招待を受けました',
    'invite.joined.lead': '{where} に参加しました。',
    'mail.invitation.subject': '招待が届いています',
    'mail.invitation.lead':
      '{where} に招待されています。ユーザー名とパスワードを選んでアカウントを作成してください。このリンクは {days, plural, other {# 日間}} 有効です。',
    'mail.invitation.action': '招待を受ける',
    'mail.invitation.existing-lead':
      'アカウント {username} で {where} に招待されています。{days, plural, other {# 日}}以内にサインインして受けてください。',
    'mail.invitation.existing-action': 'サインインして受ける',
    'mail.invitation.ignore':
      '心当たりがない場合は、このメールを無視してください。あなたが操作しない限り何も起きません。',
    'account.data.title': 'あなたのデータ',
    'account.data.lead':
      'このサーバーがあなたについて保存しているすべてを JSON ファイルで: あなたの情報、サインイン方法(秘密情報を除く)、許可したアプリケーション、セッション、所属、あなたに関する監査イベント。',
    'account.data.download': 'データをダウンロード',
    'account.delete.title': 'アカウントを削除',
    'account.delete.lead':
      'アカウントを完全に削除します。すべてのアプリケーションがアクセスを失い、パスワード、パスキー、2 要素目、セッションが削除されます。監査記録は個人データを除いて残ります。',
    'account.delete.confirm': '確認のためユーザー名 {username} を入力してください',
    'account.delete.submit': 'アカウントを完全に削除する',
    'account.delete.fresh': 'アカウントの削除には 10 分以内のサインインが必要です。先に上で本人確認をしてください。',
    'account.deleted.title': 'アカウントを削除しました',
    'account.deleted.lead': 'アカウントとその内容は削除され、すべての場所からサインアウトしました。',
    'sign-in.sign-up': 'アカウントを作成',
    'sign-up.title': 'アカウントを作成',
    'sign-up.lead':
      '確認のためにあなたのアドレスへメールを送ります。その後、そのアドレスとパスワードでサインインします。',
    'sign-up.domains': '{domains} のアドレスのみ。',
    'sign-up.email': 'メールアドレス',
    'sign-up.name': '名前',
    'sign-up.submit': 'アカウントを作成する',
    'sign-up.alert.address': 'メールを受け取るアドレスを入力してください(例: name@example.com)。',
    'sign-up.alert.domain': '{domains} のアドレスを使ってください。',
    'sign-up.alert.name': '128 文字以内の名前を 1 行で入力してください。',
    'sign-up.sent.lead':
      'このアドレスのアカウントがまだなければ、確認リンク付きのメールをそこへ送っています。{hours} 時間以内に開いて完了してください。すでにアカウントがある場合は、その持ち主に通知されます。',
    'mail.sign-up-taken.subject': 'あなたのアドレスで登録しようとした人がいます',
    'mail.sign-up-taken.lead':
      'このメールアドレスでアカウントを作成しようとした人がいますが、このアドレスはすでにあなたのアカウント {username} のものです。アカウントは作成されていません。',
    'mail.sign-up-taken.action': 'パスワードを再設定',
    'mail.sign-up-taken.ignore':
      'ご自身の場合は、そのアカウントでサインインするか、上のリンクから新しいパスワードを設定してください。心当たりがなければ、このメールは無視してください。何も変更されていません。',
  },
  problems: {
    'organization-not-member': {
      title: 'この組織のメンバーではありません',
      summary:
        'アプリケーションが、このサーバーに存在しない組織、またはあなたのアカウントがメンバーではない組織 (organization パラメーター) としてのサインインを求めました。何も許可されていません。',
      action: 'アプリケーションに戻ってご自身の組織を選ぶか、組織の管理者にメンバーへの追加を依頼してください。',
    },
    'organization-sign-in-method': {
      title: '組織は別の方法でのサインインを求めています',
      summary:
        'アプリケーションが求めた組織では許可されていない方法でサインインしました(組織のサインイン方法:パスワード、パスキー、または組織の ID プロバイダー)。何も許可されていません。',
      action:
        'サインアウトしてから、詳細に示された方法のいずれか(たとえばパスキー、または会社の ID プロバイダー)でもう一度サインインするか、組織の管理者に問い合わせてください。',
    },
    'password-reset-link-invalid': {
      title: 'このパスワード再設定リンクは使用できません',
      summary:
        '新しいパスワードを設定するリンクは、すでに使用されたか、30分以上経過したか、同じアカウントの後の再設定で無効になったか、このサーバーが送信したものではありません。リンクは一度だけ使えます。何も変更されていません。',
      action:
        'サインインページで「パスワードをお忘れですか?」を選び、新しいリンクを依頼して、届いた最新のメールを開いてください。',
    },
    'too-many-password-resets': {
      title: 'パスワード再設定の依頼が多すぎます',
      summary:
        'パスワード再設定メールの依頼が多すぎます。このユーザー名またはメールアドレスに対して(既定では1時間に5回)、またはこのネットワークアドレスから(1時間に20回)。この依頼ではメールは送信されていません。運用者は RATE_LIMIT_PASSWORD_RESET_ACCOUNT と RATE_LIMIT_PASSWORD_RESET_ADDRESS で上限を設定できます。',
      action:
        'Retry-After ヘッダーの時間(ページに表示)待ってから、もう一度依頼してください。その間は、すでに届いている最新のメールを開いてください。',
    },
    'password-not-accepted': {
      title: '別のパスワードを選んでください',
      summary:
        '新しいパスワードは拒否されました(NIST SP 800-63B §3.1.1.2)。8文字未満、1024文字超、またはよく使われている、漏えいで公開された、あるいはそれらやアカウント自体(ユーザー名、メールアドレス、名前)から推測しやすいパスワードです。数字・大文字・記号を求める規則はありません。何も変更されていません。',
      action:
        'よく使われる単語や語句ではない、より長いパスワードを選んでください。たとえば関連のない単語をいくつか組み合わせます。パスワードマネージャーで作ることもできます。',
    },
    'login-failed': {
      title: 'ユーザー名またはパスワードが正しくありません',
      summary:
        'ユーザー名とパスワードが一致するアカウントはありません。存在しないユーザー名とパスワードの誤りには同じ応答を返します。',
      action:
        'ユーザー名とパスワードを確認して、もう一度お試しください。1 つのユーザー名で 1 時間に 10 回(1 つのアドレスから 100 回)失敗すると、しばらくの間それ以上の試行は拒否されます。',
    },
    'too-many-login-attempts': {
      title: 'サインインの試行回数が多すぎます',
      summary:
        'パスワードを確認する前にサインインが拒否されました。このユーザー名またはこのアドレスからの失敗が多すぎるか(既定ではユーザー名ごとに 1 時間 10 回、アドレスごとに 1 時間 100 回、その後は 6 分ごとに 1 回)、このアドレスまたはこのアプリケーションからの試行全般が多すぎます(1 分あたり 60 回と 600 回)。運用者は RATE_LIMIT_LOGIN_* で上限を設定します。',
      action: 'Retry-After ヘッダーの時間(ページに表示されています)が経過してから、もう一度お試しください。',
    },
    'passkey-sign-in-failed': {
      title: 'そのパスキーは使用できませんでした',
      summary:
        'ブラウザーが提示したパスキーは受け付けられませんでした。ここに登録されていない(または削除された)、サインインページの有効期限切れまたは使用済み(各ページが尋ねるのは 5 分間に 1 回)、ブラウザーが別のサイトやユーザー確認なし(PIN、指紋、顔)を報告した、または認証器の署名カウンターが戻った(複製された鍵の兆候)のいずれかです。拒否はすべて監査ログに記録されます。',
      action:
        '再読み込みしたサインインページからもう一度試すか、パスワードでサインインしてください。パスキーがアカウントから削除された場合は、アカウントページで追加し直してください。1 つのアカウントで 1 時間に 10 回(1 つのアドレスから 100 回)失敗すると、しばらくの間それ以上の試行は拒否されます。',
    },
    'second-factor-failed': {
      title: 'そのコードは使用できませんでした',
      summary:
        'サインインの 2 つ目のステップが拒否されました。認証アプリのコードが間違っている、現在時刻から 30 秒以上ずれている、または使用済み(各コードは 1 回だけ有効、RFC 6238 §5.2)である、リカバリーコードが間違っているか使用済みである、または 2 段階認証の設定時にコードが表示されたキーと一致しない、のいずれかです。何も保存されていません。誤ったコードは誤ったパスワードと同様に数えられ、1 人のユーザーで 1 時間に 10 回(1 つのアドレスから 100 回)失敗すると、しばらくの間それ以上の試行は拒否されます。',
      action:
        'アプリに今表示されているコードを入力するか(使ったばかりなら次のコードを待ってください)、リカバリーコードを使用してください。両方を失った場合は、運用者に 2 つ目の要素のリセットを依頼してください(gatehouse users reset-factors)。',
    },
    'user-code-invalid': {
      title: 'そのコードは使用できませんでした',
      summary:
        'デバイスページに入力されたコードは、待機中のどのデバイスのものでもありません。入力ミス、期限切れ(コードの有効期間は 10 分)、または既に許可・拒否されたものです。大文字・小文字とハイフンは区別しません。誤ったコードはすべて数えられ、記録されます(RFC 8628 §5.1)。',
      action:
        'デバイスに表示されているコードを確認して、もう一度入力してください。デバイスにコードが表示されなくなった場合は、デバイスでサインインをやり直して新しいコードを取得してください。',
    },
    'too-many-user-code-attempts': {
      title: '誤ったコードが多すぎます',
      summary:
        'デバイスページは確認する前にコードを拒否しました。このアドレスからの誤ったコードが多すぎるか(既定では 1 時間 20 回)、試行全般が多すぎます(1 分あたり 60 回)。これにより、他人のデバイスのコードを推測されることを防ぎます(RFC 8628 §5.1)。運用者は RATE_LIMIT_USER_CODE_* で上限を設定します。',
      action: 'Retry-After ヘッダーの時間(ページに表示されています)が経過してから、もう一度お試しください。',
    },
    'csrf-token-invalid': {
      title: 'このフォームは有効期限が切れています',
      summary:
        'フォームがセキュリティトークンなし、誤ったトークン付き、またはサインインセッションの終了後に送信されたため、このサイトから送信されたものではない可能性があります。何も変更されず、何も許可されていません。',
      action:
        'アプリケーションに戻って、サインインをやり直してください。繰り返し発生する場合は、このサイトの Cookie を許可してください。',
    },
    'invalid-authorization-request': {
      title: 'このサインインリンクは無効です',
      summary:
        '認可リクエストにクライアントが指定されていないか不明なクライアントが指定されている、または redirect_uri がないかクライアントに登録されていません。サーバーはどこに戻せば安全か判断できないため、リダイレクトせずにここで停止します(RFC 6749 §4.1.2.1)。',
      action:
        'アプリケーションに戻り、開発者に知らせてください。開発者は登録済みの client_id と、登録済みのリダイレクト URI のうち 1 つを一字一句そのまま送る必要があります(gatehouse clients add --redirect-uri)。',
    },
    'fresh-sign-in-required': {
      title: 'この変更には再度のサインインが必要です',
      summary:
        'サインイン方法の変更(2 段階認証の設定・無効化、新しいリカバリーコード、パスキーの追加・名前変更・削除、ID プロバイダーのリンク解除)には、過去 10 分以内のサインインが必要です。サインインしたままのブラウザーを見つけた人が、サインイン手段を追加・削除できないようにするためです。何も変更されていません。',
      action: 'アカウントページで「本人確認」を選び(パスワードまたはパスキー)、その後で変更してください。',
    },
    'not-found': {
      title: '見つかりません',
      summary: 'この URL にリソースはありません。',
      action: 'URL を確認してください。存在するものはサーバーのメタデータと OpenAPI ドキュメントに記載されています。',
    },
  },
};
