import type { Catalog } from './en.js';

export const ja: Catalog = {
  'console.title': 'Gatehouse コンソール',
  'console.skip': '本文へ移動',
  'console.nav': 'コンソールのセクション',
  'console.signed-in-as': '{name} としてサインイン中',
  'console.sign-out': 'サインアウト',
  'console.loading': '読み込み中…',
  'nav.dashboard': 'ダッシュボード',
  'welcome.title': 'コンソールにサインイン',
  'welcome.lead':
    'ここでは管理者がユーザー、アプリケーション、署名鍵を管理します。サインインにはパスワードと第 2 要素が必要です。',
  'welcome.sign-in': 'サインイン',
  'welcome.signed-out': 'サインアウトしました。',
  'callback.title': 'サインインしています…',
  'refused.second-factor.title': '第 2 要素が必要です',
  'refused.second-factor.detail':
    'コンソールは 2 要素でのサインインのみを受け付けます。アカウントページでパスキーまたは認証アプリを追加してから、もう一度サインインしてください。',
  'refused.role.title': 'サインインしていますが、管理者ロールがありません',
  'refused.role.detail':
    'アカウント {name} には admin、user-manager、auditor のいずれのロールもありません。管理者にロールの付与を依頼してから、もう一度サインインしてください。',
  'refused.callback.title': 'サインインを完了できませんでした',
  'refused.callback.detail':
    '戻ってきた応答は、このコンソールが開始したサインインのものではないか、サインインが取り消されました。最初からやり直してください。',
  'refused.invalid.title': 'サインインを確認できませんでした',
  'refused.invalid.detail':
    'ID トークンがこのコンソール向けではないか、有効期限が切れています。最初からやり直してください。',
  'refused.not-fresh.title': '続けるにはもう一度サインインしてください',
  'refused.not-fresh.detail': 'この操作には数分以内のサインインが必要です。',
  'refused.sign-in-again': 'もう一度サインイン',
  'refused.account': 'アカウントページを開く',
  'problem.title': '管理 API がこの操作を拒否しました',
  'problem.status': 'HTTP ステータス {status}',
  'problem.retry': '再試行',
  'dashboard.title': 'ダッシュボード',
  'dashboard.keys': '署名鍵',
  'dashboard.keys.current': '現在の鍵',
  'dashboard.keys.count': '{count, plural, other {公開中の鍵: # 個}}',
  'dashboard.failures': '最近の失敗',
  'dashboard.failures.caption': '過去 24 時間のサインイン失敗、クライアント認証の失敗、リフレッシュトークンの再利用',
  'dashboard.failures.none': '過去 24 時間に失敗はありません。',
  'dashboard.failures.more': '最新の {count} 件を表示しています。',
  'table.when': '日時',
  'table.event': 'イベント',
  'table.client': 'アプリケーション',
  'table.subject': 'ユーザー',
  'table.reason': '理由',
};
