import type { Catalog } from './en.js';

export const ar: Catalog = {
  'console.title': 'وحدة تحكم Gatehouse',
  'console.skip': 'انتقل إلى المحتوى',
  'console.nav': 'أقسام وحدة التحكم',
  'console.signed-in-as': 'مسجّل الدخول باسم {name}',
  'console.sign-out': 'تسجيل الخروج',
  'console.loading': 'جارٍ التحميل…',
  'nav.dashboard': 'لوحة المعلومات',
  'welcome.title': 'تسجيل الدخول إلى وحدة التحكم',
  'welcome.lead':
    'يدير المسؤولون هنا المستخدمين والتطبيقات ومفاتيح التوقيع. يطلب تسجيل الدخول كلمة المرور وعاملًا ثانيًا.',
  'welcome.sign-in': 'تسجيل الدخول',
  'welcome.signed-out': 'لقد سجّلت الخروج.',
  'callback.title': 'جارٍ تسجيل دخولك…',
  'refused.second-factor.title': 'يلزم عامل ثانٍ',
  'refused.second-factor.detail':
    'لا تقبل وحدة التحكم إلا تسجيل دخول بعاملين. أضف مفتاح مرور أو تطبيق مصادقة في صفحة حسابك، ثم سجّل الدخول مرة أخرى.',
  'refused.role.title': 'لقد سجّلت الدخول لكن ليس لديك دور إداري',
  'refused.role.detail':
    'لا يملك حسابك {name} أيًّا من الأدوار admin أو user-manager أو auditor. اطلب من أحد المسؤولين أن يمنحك أحدها، ثم سجّل الدخول مرة أخرى.',
  'refused.callback.title': 'تعذّر إكمال تسجيل الدخول',
  'refused.callback.detail':
    'الرد الذي عاد لا يخص أي تسجيل دخول بدأته وحدة التحكم هذه، أو أُلغي تسجيل الدخول. ابدأ من جديد.',
  'refused.invalid.title': 'تعذّر التحقق من تسجيل الدخول',
  'refused.invalid.detail': 'رمز الهوية ليس لوحدة التحكم هذه، أو انتهت صلاحيته. ابدأ من جديد.',
  'refused.not-fresh.title': 'سجّل الدخول مرة أخرى للمتابعة',
  'refused.not-fresh.detail': 'يتطلب هذا الإجراء تسجيل دخول خلال الدقائق القليلة الماضية.',
  'refused.sign-in-again': 'سجّل الدخول مرة أخرى',
  'refused.account': 'افتح صفحة حسابك',
  'problem.title': 'رفضت واجهة الإدارة هذا الطلب',
  'problem.status': 'رمز حالة HTTP {status}',
  'problem.retry': 'أعد المحاولة',
  'dashboard.title': 'لوحة المعلومات',
  'dashboard.keys': 'مفاتيح التوقيع',
  'dashboard.keys.current': 'المفتاح الحالي',
  'dashboard.keys.count':
    '{count, plural, zero {لا مفاتيح منشورة} one {مفتاح واحد منشور} two {مفتاحان منشوران} few {# مفاتيح منشورة} many {# مفتاحًا منشورًا} other {# مفتاح منشور}}',
  'dashboard.failures': 'الإخفاقات الأخيرة',
  'dashboard.failures.caption':
    'محاولات تسجيل الدخول الفاشلة، ومصادقات العملاء الفاشلة، وإعادة استخدام رموز التحديث خلال آخر 24 ساعة',
  'dashboard.failures.none': 'لا إخفاقات خلال آخر 24 ساعة.',
  'dashboard.failures.more': 'يُعرض أحدث {count}.',
  'table.when': 'الوقت',
  'table.event': 'الحدث',
  'table.client': 'التطبيق',
  'table.subject': 'المستخدم',
  'table.reason': 'السبب',
};
