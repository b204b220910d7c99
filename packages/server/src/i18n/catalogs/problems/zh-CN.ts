import type { ProblemProseTable } from '../catalog.js';

/**
 * Simplified Chinese (您) prose of every page of the error catalog, by slug: what a page says of the entry. Wire
 * values (parameter and field names, codes, headers, settings, the exact English `detail` texts) stay as
 * the wire has them.
 */
export const zhCNProblems: ProblemProseTable = {
  'organization-not-member': {
    title: '您不是该组织的成员',
    summary:
      '应用请求以某个组织（其 organization 参数）的身份为您登录，但该组织在此服务器上不存在，或者您的账户不是其成员。未授予任何权限。',
    action: '请返回应用并选择您所属的组织之一，或请该组织的管理员将您添加为成员。',
  },
  'password-reset-link-invalid': {
    title: '此密码重置链接已失效',
    summary:
      '设置新密码的链接已被使用、已超过 30 分钟、已被同一账户之后的重置作废,或并非本服务器发送。每个链接只能使用一次。未做任何更改。',
    action: '请重新获取链接:在登录页面选择“忘记密码?”,然后打开最新收到的邮件。',
  },
  'too-many-password-resets': {
    title: '密码重置请求过多',
    summary:
      '请求密码重置邮件的次数过多:针对此用户名或电子邮件地址(默认每小时 5 次),或来自此网络地址(每小时 20 次)。此次请求未发送邮件。运维人员可通过 RATE_LIMIT_PASSWORD_RESET_ACCOUNT 和 RATE_LIMIT_PASSWORD_RESET_ADDRESS 设置限制。',
    action: '请等待 Retry-After 标头给出的时间(页面上有显示)后再请求;在此期间,请打开已收到的最新邮件。',
  },
  'password-not-accepted': {
    title: '请换一个密码',
    summary:
      '新密码被拒绝(NIST SP 800-63B §3.1.1.2):少于 8 个字符、多于 1024 个字符,或属于常见密码、在数据泄露中公开的密码,或者很容易根据这些密码或账户本身(用户名、电子邮件地址、姓名)猜到。没有要求数字、大写字母或符号的规则。未做任何更改。',
    action: '请选择一个更长、且不是常见词语或短语的密码,例如几个互不相关的词语;密码管理器可以帮您生成。',
  },
  'login-failed': {
    title: '用户名或密码错误',
    summary: '用户名和密码与任何账户都不匹配。用户名不存在和密码错误得到的是同样的回答。',
    action:
      '请检查用户名和密码后重试。同一用户名在一小时内失败 10 次(或同一地址失败 100 次)后,后续尝试会在一段时间内被拒绝。',
  },
  'too-many-login-attempts': {
    title: '登录尝试次数过多',
    summary:
      '在检查密码之前登录就被拒绝了:此用户名或此地址的失败次数过多(默认每个用户名每小时 10 次、每个地址每小时 100 次,之后每 6 分钟再允许一次),或来自此地址或针对此应用的各类尝试过多(每分钟 60 次和 600 次)。运营者通过 RATE_LIMIT_LOGIN_* 设置这些限制。',
    action: '请等待 Retry-After 标头给出的时间(页面上有显示),然后重试。',
  },
  'passkey-sign-in-failed': {
    title: '该通行密钥无法使用',
    summary:
      '浏览器提供的通行密钥未被接受:它未在此处注册(或已被移除),登录页面已过期或已使用过(每个页面只询问一次,有效 5 分钟),浏览器报告了其他网站或未进行用户验证(PIN、指纹或面容),或者身份验证器的签名计数器倒退,这是密钥被复制的迹象。每次拒绝都会记录在审计日志中。',
    action:
      '请在重新加载的登录页面上重试,或使用密码登录。如果该通行密钥已从您的账户中移除,请在账户页面重新添加。同一账户在一小时内失败 10 次(或同一地址失败 100 次)后,后续尝试会在一段时间内被拒绝。',
  },
  'second-factor-failed': {
    title: '该验证码无效',
    summary:
      '登录的第二步被拒绝:身份验证器应用中的验证码错误、与当前时间相差超过 30 秒或已被使用(每个验证码只能登录一次,RFC 6238 §5.2);恢复码错误或已被使用;或者在设置两步验证时,验证码与刚显示的密钥不匹配。未保存任何内容。错误的验证码与错误的密码一样计数:同一用户在一小时内失败 10 次(或同一地址失败 100 次)后,后续尝试会在一段时间内被拒绝。',
    action:
      '请输入应用当前显示的验证码(如果刚用过,请等待下一个),或使用您的一个恢复码。如果两者都丢失了,请联系运营者重置您的第二因素(gatehouse users reset-factors)。',
  },
  'user-code-invalid': {
    title: '该代码无效',
    summary:
      '在设备页面输入的代码不属于任何正在等待的设备:输入有误、已过期(代码有效期为 10 分钟),或已被允许或拒绝。大小写和连字符不影响结果。每个错误代码都会被计数并记录(RFC 8628 §5.1)。',
    action: '请核对设备上显示的代码并重新输入。如果设备上已不再显示代码,请在设备上重新开始登录以获取新代码。',
  },
  'too-many-user-code-attempts': {
    title: '错误代码过多',
    summary:
      '设备页面在检查代码之前就拒绝了它:来自此地址的错误代码过多(默认每小时 20 次),或各类尝试过多(每分钟 60 次)。这可以防止有人猜测他人设备的代码(RFC 8628 §5.1)。运营者通过 RATE_LIMIT_USER_CODE_* 设置这些限制。',
    action: '请等待 Retry-After 标头给出的时间(页面上有显示),然后重试。',
  },
  'csrf-token-invalid': {
    title: '此表单已过期',
    summary:
      '该表单提交时缺少安全令牌、令牌错误,或登录会话已结束,因此它可能并非来自本网站。未做任何更改,也未授予任何权限。',
    action: '请返回应用并重新登录。如果此问题反复出现,请允许本网站使用 Cookie。',
  },
  'invalid-authorization-request': {
    title: '此登录链接无效',
    summary:
      '授权请求没有指明客户端或指明了未知的客户端,或者 redirect_uri 缺失或未为该客户端注册。服务器无法确定将您送回何处才安全,因此停在这里而不进行重定向(RFC 6749 §4.1.2.1)。',
    action:
      '请返回应用并告知其开发者。开发者必须发送已注册的 client_id,以及逐字符完全一致的一个已注册重定向 URI(gatehouse clients add --redirect-uri)。',
  },
  'fresh-sign-in-required': {
    title: '请重新登录后再更改',
    summary:
      '对登录方式的任何更改(设置或关闭两步验证、生成新的恢复码、添加、重命名或移除通行密钥、取消关联身份提供方)都需要最近 10 分钟内的登录,这样捡到已登录浏览器的人就无法添加或移除登录方式。未做任何更改。',
    action: '请在账户页面选择“确认是我本人”(使用密码或通行密钥),然后再进行更改。',
  },
  'not-found': {
    title: '未找到',
    summary: '此 URL 处没有资源。',
    action: '请检查 URL;服务器元数据和 OpenAPI 文档列出了现有的内容。',
  },
  'invalid-request': {
    title: '请求无效',
    summary:
      '请求缺少必需参数、重复了某个参数，或请求体不是表单编码；在授权端点，请求缺少 S256 的 PKCE code_challenge。',
    action: '请按 error_description 所述修正请求；原样再次发送仍会失败。',
  },
  'invalid-client': {
    title: '客户端认证失败',
    summary:
      '无法认证客户端：客户端未知（或在设备授权端点，client_id 是一个 URL，但其客户端 ID 元数据文档无法获取、无效或在此不被接受）、密钥错误、没有凭据、使用了多种认证方式，或使用了客户端不允许的方式（private_key_jwt 客户端或 FAPI 2.0 配置的客户端发送了密钥；其客户端断言使用了 PS256、ES256 或 EdDSA 以外的算法签名）。',
    action: '这是配置错误：请检查客户端 ID、密钥和认证方式。请保留您的令牌，不要让用户重新认证。',
  },
  'invalid-grant': {
    title: '授权被拒绝',
    summary: '刷新令牌或授权码已过期、已撤销、超过轮换上限、签发给了其他客户端，或未知。此拒绝是永久性的。',
    action:
      '不要用同一令牌重试：无论现在还是以后都会再次失败。请丢弃它，让用户重新完成完整的授权流程以获得新的授权。也可以对令牌进行内省以确认其已被撤销。',
  },
  'unauthorized-client': {
    title: '此客户端不允许使用该授权类型',
    summary: '客户端未注册其使用的授权类型，或在授权端点，未注册授权码流程。',
    action: '这是配置错误：请让运营者为该客户端允许此授权类型，或使用已允许的类型。',
  },
  'unsupported-grant-type': {
    title: '不支持的授权类型',
    summary:
      'grant_type 不是本服务器支持的类型之一（authorization_code、refresh_token、client_credentials、urn:ietf:params:oauth:grant-type:device_code）。',
    action: '请使用支持的授权类型；服务器元数据的 grant_types_supported 中列出了它们。',
  },
  'invalid-scope': {
    title: '范围无效',
    summary: '请求的范围格式错误，或超出了客户端或授权所允许的范围。',
    action: '只请求客户端已注册的范围；刷新时，只请求原始授权中的范围。',
  },
  'unsupported-token-type': {
    title: '此类型的令牌无法撤销',
    summary: '访问令牌是短期有效的已签名 JWT，不会逐个撤销。',
    action: '请改为撤销刷新令牌：这会撤销整个授权，API 会拒绝已撤销授权的访问令牌。',
  },
  'invalid-redirect-uri': {
    title: '重定向 URI 无效',
    summary:
      '客户端注册（RFC 7591 §3.2.2）没有为授权码授权指定重定向 URI，或指定的 URI 既不是不带片段的绝对 https URI，也不是回环 IP 字面量（127.0.0.1 或 [::1]，RFC 8252 §7.3）上的普通 http。没有注册或更改任何内容。',
    action:
      '请注册 https 重定向 URI；若是本机上的原生应用或代理，可用 http://127.0.0.1/… 或 http://[::1]/…（授权时任何端口都匹配）。',
  },
  'invalid-client-metadata': {
    title: '客户端元数据无效',
    summary:
      '客户端注册（RFC 7591 §2、§3.2.2）发送了服务器不接受的元数据：字段类型错误、grant_types 与 response_types 不一致、服务器不提供的认证方式或范围、没有初始访问令牌的机密客户端，或为无法符合 FAPI 2.0 的客户端指定了 fapi2 配置。没有注册或更改任何内容。',
    action: '请修正 error_description 指出的字段并重新注册；服务器元数据列出了它提供的授权类型、范围和认证方式。',
  },
  'invalid-target': {
    title: '未知资源',
    summary:
      '授权或令牌请求指定了本服务器不提供的资源（RFC 8707 §2）：既不是其签发者，也不是其 REST API（{issuer}/v2）；或令牌交换（RFC 8693 §2.2.2）指定了客户端的令牌交换策略中未列出的受众或资源。没有签发任何授权码或令牌。',
    action:
      '请原样发送受保护资源元数据（RFC 9728）中的 resource 值；若要用于整个服务器的令牌，则不发送资源。对于令牌交换，请让运营者将该目标添加到客户端的令牌交换受众中。',
  },
  'access-denied': {
    title: '访问被拒绝',
    summary:
      '用户在同意页面上拒绝了授权请求。授权服务器将此结果发送到 redirect_uri；没有签发授权码。轮询令牌端点的设备在用户于 /device 页面拒绝其设备码后收到此结果（RFC 8628 §3.5）。',
    action: '告诉用户应用未获得访问权限，并在用户愿意时提供重新开始授权流程的选项。不要自行重试。',
  },
  'unsupported-response-type': {
    title: '不支持的响应类型',
    summary: '授权请求要求的 response_type 不是 code。这里只提供带 PKCE 的授权码流程，不提供隐式流程（token）。',
    action: '请发送 response_type=code 及 S256 的 PKCE code_challenge，然后在令牌端点兑换授权码。',
  },
  'server-error': {
    title: '服务器错误',
    summary: '服务器遇到了意外情况。令牌没有任何变化。',
    action: '请以指数退避方式重试；如果问题持续存在，请报告给运营者。',
  },
  'temporarily-unavailable': {
    title: '暂时不可用',
    summary: '服务器过载或其存储繁忙（503），或客户端或其地址发送的请求超过了速率限制（429）。令牌没有任何变化。',
    action:
      '请在 Retry-After 指定的时间（整秒）后以指数退避方式重试。遇到 429 时，请减少请求：在访问令牌过期前继续使用，而不要提前刷新，并短暂缓存内省结果。',
  },
  'login-required': {
    title: '需要登录',
    summary: '认证请求指定了 prompt=none，但用户未登录（或登录时间早于 max_age 允许的范围）。没有显示任何页面。',
    action: '请让用户不带 prompt=none 重新发起授权请求，以便其登录。',
  },
  'consent-required': {
    title: '需要同意',
    summary: '认证请求指定了 prompt=none，但用户尚未允许此应用使用所请求的范围。没有显示任何页面。',
    action: '请让用户不带 prompt=none 重新发起授权请求，以便其表示同意。',
  },
  'interaction-required': {
    title: '需要用户操作',
    summary:
      '认证请求指定了 prompt=none，但需要用户操作：其 id_token_hint 指向的用户与已登录的用户不同，需要切换账户。没有显示任何页面。',
    action: '请让用户不带 prompt=none 重新发起授权请求。',
  },
  'bearer-invalid-token': {
    title: '访问令牌无效',
    summary:
      'userinfo 端点没有收到访问令牌，或收到的令牌已过期、不是本服务器签名、由其他签发者签发或面向其他受众（使用其他 ISSUER 生成的令牌），或其授权已被撤销；或客户端注册端点（RFC 7591 §3、RFC 7592 §3）没有收到有效的初始访问令牌或注册访问令牌。',
    action:
      '请刷新访问令牌（或让用户重新登录），然后用新令牌重试。在注册端点：请向运营者索取新的初始访问令牌，或重新注册客户端。',
  },
  'bearer-insufficient-scope': {
    title: '范围不足',
    summary: '访问令牌未被授予 userinfo 端点所需的 openid 范围。',
    action: '请在授权请求中请求 openid 范围。',
  },
  'authorization-pending': {
    title: '等待授权',
    summary: '设备码有效，但用户尚未输入用户码，也尚未在 /device 页面上批准或拒绝该请求（RFC 8628 §3.5）。',
    action:
      '请继续用同一个 device_code 轮询令牌端点，每次请求之间等待规定的间隔（除非设备授权响应另有说明，否则为 5 秒）。',
  },
  'slow-down': {
    title: '轮询过快',
    summary:
      '设备轮询令牌端点的频率超过了间隔允许的范围。授权仍在等待中，此设备码的间隔现已增加 5 秒（RFC 8628 §3.5）。',
    action: '请为此设备码的本次及之后的每次请求将轮询间隔增加 5 秒，然后继续轮询。',
  },
  'expired-token': {
    title: '设备码已过期',
    summary: '设备码在被批准和兑换之前已过期（签发后 10 分钟）；设备授权会话已结束（RFC 8628 §3.5）。',
    action: '请停止轮询。发起新的设备授权请求，并向用户显示新的用户码。',
  },
  'invalid-request-object-error': {
    title: '请求对象无效',
    summary:
      'request 参数不是服务器接受的请求对象（RFC 9101 §7）：不是用客户端已注册的密钥以非对称算法签名的 JWT，或其 iss 不是 client_id、aud 不是签发者、exp 缺失或已过、nbf 在未来，或指向其他客户端。',
    action:
      '请用客户端 jwks 或 jwks_uri 中的密钥签名请求对象，iss 为 client_id，aud 为签发者标识符，exp 设为几分钟之后，然后重新发送。',
  },
  'token-invalid-dpop-proof': {
    title: 'DPoP 证明无效',
    summary:
      '令牌请求或推送授权请求（RFC 9449 §10.1）携带的 DPoP 头（RFC 9449 §4）不是唯一一个有效证明：不是 typ 为 dpop+jwt 的紧凑 JWS、使用了 dpop_signing_alg_values_supported 以外的算法、jwk 含私钥或格式错误、签名错误、htm 或 htu 与本请求不符、iat 超出时间窗口，或 jti 已用过；或客户端以 dpop_bound_access_tokens 或 FAPI 2.0 配置（profile fapi2）注册，却没有向令牌端点发送证明。',
    action:
      '请发送恰好一个 DPoP 头，附上针对本请求的新证明（htm 为 POST，htu 为所调用的令牌或推送授权请求端点且不含查询，新的 jti，iat 为当前时间），并用服务器公布的算法签名。',
  },
  'token-use-dpop-nonce': {
    title: '需要 DPoP nonce',
    summary:
      '服务器要求 DPoP 证明中包含服务器提供的 nonce（RFC 9449 §8），但证明中没有，或其 nonce 已不再有效。响应的 DPoP-Nonce 头中带有应使用的 nonce。',
    action: '请生成新证明，其 nonce 声明为本响应的 DPoP-Nonce 头，然后重新发送请求。',
  },
  'missing-required-field': {
    title: '缺少必填字段',
    summary:
      'JSON 请求体中缺少必填字段，或在架构不允许 null 的地方设为了 null。detail 的原文是：Missing required field \'<field_name>\' in request body. 每个缺少的字段都列在 errors 中。只有架构明确允许时，null 才是一个值而不是缺少字段：OpenAPI 3.0 中的 nullable: true，OpenAPI 3.1 中 type 列出 "null"。',
    action:
      '请添加该字段并赋予有效值后重新发送。发送前请用架构（GET /v2/openapi.json）验证请求体。把 POST 改为 PUT 并不能绕过验证。',
  },
  'invalid-field-value': {
    title: '字段值无效',
    summary:
      '字段存在，但其值不可接受：空值或格式错误的值、类型错误、架构拒绝的字段（additionalProperties: false），或 id 等只读字段发送了与记录自身不同的值（或在创建时发送了该字段）。',
    action: '请为 errors 中列出的每个字段发送格式正确的值。',
  },
  'malformed-json': {
    title: 'JSON 格式错误',
    summary: '请求体不是有效的 UTF-8 JSON、数组和对象嵌套超过 64 层，或在需要请求体的地方为空。',
    action: '请发送格式正确的 JSON 文档。',
  },
  'invalid-parameter': {
    title: '查询参数无效',
    summary: '某个查询参数的值不被端点接受，例如超出范围的分页大小或并非由其给出的游标。',
    action: '请按 detail 所述发送该参数，或省略它。',
  },
  'unsupported-media-type': {
    title: '不支持的媒体类型',
    summary:
      '请求体的 Content-Type 不被此端点接受，或带有 Content-Encoding（如 gzip）：请求体只按发送时的原样读取（该响应带有 Accept-Encoding: identity）。',
    action:
      '请发送 Content-Type: application/json（PATCH 用 application/merge-patch+json），并且请求体不要使用 Content-Encoding。',
  },
  'payload-too-large': {
    title: '请求体过大',
    summary: '请求体超过了服务器接受的大小。',
    action: '请发送较小的请求体。',
  },
  'invalid-token': {
    title: '访问令牌无效',
    summary:
      "Bearer 访问令牌缺失、格式错误、已过期、由未知密钥签名，或属于已撤销的授权；或本服务器的密钥为其他签发者或受众签名了它（用其他 ISSUER 生成），此时 detail 为：The access token was issued by '<iss>', not by this server ('<issuer>'). 或 The access token is for the audience '<aud>', not for this server ('<issuer>').",
    action: '请刷新访问令牌；如果刷新被 invalid_grant 拒绝，请重新执行授权流程。',
  },
  'insufficient-scope': {
    title: '范围不足',
    summary:
      "访问令牌有效，但缺少此操作所需的范围；detail 为：This operation needs the scope '<scope>'.（若多个备选之一即可，则为 '<scope>' or '<scope>'.）。",
    action: '请获取具有 WWW-Authenticate 头中所列范围的令牌。',
  },
  'insufficient-role': {
    title: '角色不足',
    summary:
      "访问令牌有效，但其持有者缺少此操作所需的角色（RFC 9068 §2.2.3.1 `roles`，由操作在 `x-required-roles` 中声明）；detail 为：This operation needs the role '<role>'.（若多个之一即可，则为 '<role>' or '<role>'.）。在管理 API 上：用户的令牌面向受众 '{issuer}/admin/v1'，且该用户拥有操作允许的 admin、user-manager 或 auditor 角色。",
    action: '请向运营者申请该角色（gatehouse roles assign），然后刷新访问令牌：角色变更从下一个令牌起生效。',
  },
  'step-up-required': {
    title: '此操作需要重新登录',
    summary:
      '管理 API 的危险操作(删除客户端、用户、上游提供方、组织、组或角色,新的客户端密钥,轮换或停用签名密钥;文档用 x-step-up-max-age 标出每一项)是用某个用户的访问令牌调用的,而该令牌的登录时间(其 auth_time,RFC 9068 §2.2.1)早于 300 秒之前,或者令牌没有说明用户何时登录。WWW-Authenticate 质询为 error="insufficient_user_authentication",带 max_age="300"(RFC 9470 §3)。管理客户端自己的令牌(client_credentials)没有登录,不受此限。未做任何更改。',
    action:
      '带上 max_age=300 和 prompt=login 让用户重新经过授权端点(OpenID Connect Core §3.1.2.1),然后用新的访问令牌重做该操作。',
  },
  'invalid-dpop-proof': {
    title: 'DPoP 证明无效',
    summary:
      '访问令牌与 DPoP 绑定（RFC 9449），而其证明缺失或被拒绝：DPoP 头不是唯一一个 typ 为 dpop+jwt、由其携带的公钥以可接受算法签名的紧凑 JWS，或其 htm、htu、iat、ath 或 jti 与本请求不符（已用过的证明会被拒绝），或由令牌所绑定密钥以外的密钥签名。WWW-Authenticate 中的 DPoP 质询列出了可接受的算法。',
    action:
      '请发送 Authorization: DPoP <token>，并附上针对本请求的新证明（htm、不含查询的 htu、新的 jti、令牌的 ath），用令牌所绑定的密钥签名。',
  },
  'use-dpop-nonce': {
    title: '需要 DPoP nonce',
    summary:
      'DPoP 证明缺少本服务器提供的 nonce，或带有其已不再接受的 nonce（RFC 9449 §9）。响应的 DPoP-Nonce 头中带有当前的 nonce。',
    action: '请生成新证明，其 nonce 声明为本响应的 DPoP-Nonce 头，然后重试一次。',
  },
  'owner-required': {
    title: '需要用户',
    summary:
      '该集合的记录属于创建它们的用户（OpenAPI 文档中的 x-gatehouse-ownership: owner），而访问令牌不代表任何用户：它是签发给客户端自身的（client_credentials 授权）。文档中的 x-gatehouse-client-access 说明了此类令牌在此可以做什么：none（有所有者的记录的默认值）、read 或 read-write。',
    action:
      '请使用用户授予的访问令牌（授权码流程或设备流程）调用 API；需要访问所有用户记录的服务，请让运营者为该集合声明 x-gatehouse-client-access。',
  },
  'method-not-allowed': {
    title: '方法不允许',
    summary: '资源存在，但不支持此 HTTP 方法。',
    action: '请使用 Allow 头中列出的方法之一。',
  },
  'precondition-failed': {
    title: '前提条件失败',
    summary: 'If-Match 指定的记录版本已不是最新版本。',
    action: '请重新获取记录，重新应用您的更改，并附上新的 ETag 发送。',
  },
  'invalid-operator-input': {
    title: '运营者输入无效',
    summary:
      '管理请求指定了不存在的内容、已存在的内容，或违反了服务器的规则（例如范围超出客户端可用的范围）。detail 说明了是哪一种。',
    action: '请按 detail 所述修正请求后重新发送；相同的请求会再次被拒绝。',
  },
  conflict: {
    title: '已存在',
    summary: '管理请求要创建的内容其标识符已被占用：客户端 ID 或用户名已存在。没有写入任何内容。',
    action: '请选择其他标识符，或修改（PUT）现有内容而不是创建；相同的请求会再次被拒绝。',
  },
  'invalid-email-address': {
    title: '此电子邮件地址无法接收邮件',
    summary:
      '该电子邮件地址不是一个 name@domain 形式的地址：为空、超过 254 个字符（RFC 5321 §4.5.3.1.3）或名称部分超过 64 个字符、包含显示名称、组、多个地址、引号、空格、换行或其他控制字符（换行可能会给邮件添加邮件头），或其域名不是有效的主机名。没有加入队列，也没有发送邮件。',
    action: '请修正地址（例如 alice@example.com）后重新发送。',
  },
  'invalid-email-message': {
    title: '无法将此邮件加入队列',
    summary:
      '交给发件箱的邮件违反了邮件规则：主题行包含换行或其他控制字符（可能会给邮件添加邮件头）或超过 998 个字符（RFC 5322 §2.1.1）、某个正文为空，或其类型或语言格式错误。没有加入队列，也没有发送邮件；detail 说明了是哪一部分。',
    action: '这是服务器或其收到的文本的问题（例如主题中显示了含换行的名称）；请修正该文本后重试，或告知运营者。',
  },
  'email-verification-link-invalid': {
    title: '此验证链接已失效',
    summary:
      '验证电子邮件地址的链接已被使用、超过 24 小时、被更新的验证邮件取代、账户此后已更换地址，或不是本服务器发送的链接。每个链接只能使用一次。没有更改任何内容。',
    action: '请登录并打开您的账户页面：页面会显示地址是否已验证，未验证时会发送新邮件。',
  },
  'verification-code-invalid': {
    title: '该验证码无效',
    summary:
      '这个六位数验证码不是最新验证邮件中的验证码、已被使用，或已超过 24 小时。一个账户在一小时内输错 10 次后，一段时间内将不再检查任何验证码（429，带 Retry-After）。没有更改任何内容。',
    action: '请输入最新邮件中的验证码，或改为打开其中的链接；也可以在账户页面请求新邮件。',
  },
  'email-address-missing': {
    title: '此账户没有可验证的电子邮件地址',
    summary:
      '服务器要求在登录完成前验证电子邮件地址（EMAIL_VERIFICATION=required），而此账户没有任何地址，因此无法发送验证码。密码是正确的；登录在此停止，没有任何更改。',
    action:
      '请管理员为该账户添加电子邮件地址（gatehouse users update NAME --email ADDRESS，或管理 API），然后重新登录。',
  },
  'upstream-unavailable': {
    title: '您的身份提供方没有响应',
    summary:
      '登录需经过 Gatehouse 信任的身份提供方（联合身份），而它没有及时响应、返回了服务器错误，或其发现文档无法读取。没有登录，也没有更改任何内容。',
    action:
      '请稍候片刻，然后选择“重试”。如果仍然失败，说明身份提供方已宕机或 Gatehouse 无法访问它：请告知运营者，或改用其他方式登录。',
  },
  'upstream-misconfigured': {
    title: '使用此身份提供方登录的设置不正确',
    summary:
      'Gatehouse 拒绝向身份提供方发送请求，因此从未询问过该提供方：其配置违反了 Gatehouse 自身的一条规则（detail 中有说明），例如向非回环主机使用普通 http。没有登录。目前并未发现该提供方宕机。',
    action:
      '请改用其他方式登录，并把 detail 告知运营者。运营者：请修正该提供方的条目（docs/federation.md，Configuring upstreams）并重新应用。',
  },
  'upstream-access-denied': {
    title: '您的身份提供方拒绝了登录',
    summary:
      '身份提供方返回了 access_denied（RFC 6749 §4.1.2.1）：您取消了操作，或它不允许您的账户使用此应用。没有登录。',
    action: '请从应用重新开始登录，或向您的身份提供方的管理员申请访问权限。',
  },
  'upstream-login-required': {
    title: '您的身份提供方需要您登录',
    summary:
      '身份提供方返回了 login_required、interaction_required 或 consent_required（OIDC Core §3.1.2.6）：它无法在不显示页面的情况下让您登录。没有登录。',
    action: '请从应用重新开始登录；身份提供方将显示其登录页面。',
  },
  'upstream-sign-in-failed': {
    title: '您的身份提供方未能让您登录',
    summary:
      '身份提供方带着 access_denied 或 login_required 以外的错误将浏览器送回（RFC 6749 §4.1.2.1；detail 中有错误名称），或打开了带有此类错误的链接。没有登录。',
    action:
      '请从应用重新开始登录。如果仍然发生，请把 detail 中的错误告知运营者：提供方可能拒绝了 Gatehouse 的请求内容（某个范围、该客户端）。',
  },
  'upstream-code-refused': {
    title: '无法完成此次登录',
    summary:
      '身份提供方拒绝了此浏览器带回的授权码（invalid_grant 或 invalid_request，RFC 6749 §5.2）：它已被使用、已过期，或签发给了另一次登录，例如在其他浏览器中打开的链接。已拒绝并记录；没有登录。',
    action: '请在此浏览器中从应用重新开始登录，并在同一浏览器中完成；登录链接不能打开两次，也不能在其他浏览器中打开。',
  },
  'upstream-error': {
    title: '您的身份提供方返回了错误',
    summary:
      '身份提供方向 Gatehouse 本身返回了无法使用的内容：其令牌或 userinfo 端点返回了与授权码无关的 OAuth 错误（invalid_client、unauthorized_client：detail 中有说明）、指向其他签发者的发现文档，或不符合协议的响应。没有登录。',
    action: '请改用其他方式登录，并把 detail 告知运营者：需要修正 Gatehouse 在该提供方处的注册，或提供方本身。',
  },
  'upstream-token-invalid': {
    title: '身份提供方的响应被拒绝',
    summary:
      '来自身份提供方的 ID 令牌或回调未通过验证（OIDC Core §3.1.3.7、RFC 9207）：未签名（alg none）或签名错误、由其他签发者签发、面向其他受众、已过期、nonce 错误，或回调指向其他签发者。已拒绝并记入审计日志；没有登录。',
    action: '请从应用重新开始登录。如果仍然发生，请告知运营者：响应可能已被篡改。',
  },
  'federation-state-invalid': {
    title: '此次登录已过期或已被使用',
    summary:
      '身份提供方的响应中带有的 state 不是 Gatehouse 发送给此浏览器的、是十多分钟前发送的，或已被使用过（RFC 6749 §10.12、RFC 9700 §4.7）。这可能是伪造或重放的链接。已拒绝并记录；没有登录。',
    action: '请返回应用，在同一浏览器中重新开始登录。',
  },
  'federation-no-provider': {
    title: '没有对应该地址的身份提供方',
    summary: '输入的电子邮件地址所属的域名不由本服务器的任何身份提供方服务，或所选的提供方已不再配置。',
    action: '请检查地址，或使用用户名和密码登录。',
  },
  'federation-no-account': {
    title: '没有与此次登录对应的账户',
    summary: '身份提供方已让您登录，但没有本地账户与该身份关联，而运营者不允许此提供方在首次登录时创建账户。',
    action: '请让运营者为您创建账户，或使用用户名和密码登录后从那里关联该提供方。',
  },
  'federation-unlink-refused': {
    title: '这是您唯一的登录方式',
    summary: '解除关联此身份提供方会使账户没有任何登录方式：它没有密码，也没有其他已关联的提供方。没有更改任何内容。',
    action: '请先让运营者为您的账户设置密码，然后再解除关联该提供方。',
  },
  'organization-domain-public': {
    title: '公共邮件域名',
    summary:
      '管理请求为组织指定了公共邮件服务商（gmail.com、outlook.com、yahoo.com 等）或一次性地址的电子邮件域名。任何人都可以在那里拥有地址，因此这样的域名无法说明谁为该组织工作：它会让陌生人在登录时成为成员。没有写入任何内容。',
    action:
      '请为组织指定它拥有的域名（其公司域名）。地址在公共服务商处的成员需逐个添加（gatehouse orgs members add）。',
  },
  'internal-error': {
    title: '服务器内部错误',
    summary: '服务器遇到了意外情况；没有写入任何内容。',
    action: '请以指数退避方式重试；如果问题持续存在，请报告给运营者。',
  },
  'service-unavailable': {
    title: '服务不可用',
    summary: '服务器过载或其存储繁忙；没有写入任何内容。',
    action: '请在 Retry-After 指定的时间后以指数退避方式重试。',
  },
  'not-ready': {
    title: '未就绪',
    summary:
      '就绪探针（GET /health/ready）发现服务器无法提供服务：其存储未在探针的时限内响应、数据库缺少此版本所需的迁移，或无法加载任何签名密钥。detail 说明了是哪一种。进程本身仍在运行（GET /health/live）。',
    action:
      '负载均衡器：在此实例再次返回 200 之前，请将请求发往其他实例。运营者：请按 detail 所述启动或连通数据库、运行 gatehouse migrate，或运行 gatehouse keys rotate --now。',
  },
  'client-metadata-document-unavailable': {
    title: '无法获取此应用的描述',
    summary:
      'client_id 是一个客户端 ID 元数据文档（draft-ietf-oauth-client-id-metadata-document）的 https URL，但服务器无法安全地获取它：其主机解析到私有、回环、链路本地或其他非公共地址，或该 URL 返回了重定向（从不跟随）、错误状态、超过大小限制的文档，或在时限内没有返回任何内容。detail 说明了是哪一种。没有登录，也没有授予任何权限。',
    action:
      '请返回应用并告知其开发者。开发者必须在与 client_id 完全相同的 URL 上，通过公共地址以 https 提供该文档，状态为 200、无重定向且体积小（几 KB）。私有部署的运营者可以用 CLIENT_ID_METADATA_ALLOW_ADDRESSES 允许地址（docs/agents.md）。',
  },
  'client-metadata-document-invalid': {
    title: '此应用的描述无效',
    summary:
      '已获取客户端 ID 元数据文档，但它无法描述此客户端：它不是 JSON 对象、其 client_id 与获取它的 URL 不完全相同、它要求共享密钥（client_secret_basic、client_secret_post 或 client_secret 字段）、要求 private_key_jwt 却没有密钥、要求 authorization_code、设备码授权和 refresh_token 以外的授权（且至少需要前两者之一），或其重定向 URI 无法注册（必须是 https，或回环 IP 字面量上的 http）。detail 说明了是哪一种。',
    action:
      '请返回应用并告知其开发者：该文档必须遵循 draft-ietf-oauth-client-id-metadata-document §4 以及已注册客户端的重定向 URI 规则（docs/agents.md）。',
  },
  'client-metadata-document-not-allowed': {
    title: '此应用不允许在此使用',
    summary:
      'client_id 是某个客户端 ID 元数据文档的 URL，而其主机不被本服务器的运营者接受（CLIENT_ID_METADATA_DOCUMENTS=allowlist 且主机不在 CLIENT_ID_METADATA_ALLOW_HOSTS 中，或主机在 CLIENT_ID_METADATA_DENY_HOSTS 中），或不是此类文档可以使用的 URL（须为 https、带路径，不含片段、凭据或点路径段）。没有获取任何内容。',
    action: '请让服务器的运营者允许该应用的主机，或使用在服务器上注册的客户端（gatehouse clients add 或 /register）。',
  },
  'invalid-request-uri': {
    title: '此登录链接已过期或已被使用',
    summary:
      '授权请求指定的 request_uri 未知、已过期（推送的请求约有效一分钟）、已被使用过一次、由 client_id 所指以外的客户端推送，或属于本服务器不会获取的类型（RFC 9126 §4、RFC 9101 §6.2）。没有推送的请求，服务器就无法知道把您送回哪里才安全。',
    action:
      '请返回应用并重新开始。开发者必须在将浏览器带着 client_id 和所返回的 request_uri 送往 /authorize 之前，先推送授权请求（POST /par），并且只使用一次。',
  },
  'invalid-request-object': {
    title: '此登录链接的签名不正确',
    summary:
      '授权请求携带的请求对象（request 参数，RFC 9101）不是用客户端已注册的密钥以可接受算法签名的 JWT，或其 iss 不是 client_id、aud 不是本服务器的签发者、已过期或尚未生效，或其 client_id 与请求中的不同（RFC 9101 §6.3）。',
    action:
      '请返回应用并告知其开发者：请求对象须用客户端 jwks 或 jwks_uri 中的密钥签名（ES256、PS256、RS256、EdDSA 及同类算法），iss 为 client_id，aud 为签发者，exp 设得较短。',
  },
  'invalid-logout-request': {
    title: '此退出链接无效',
    summary:
      '退出请求指定的 post_logout_redirect_uri 未为该应用注册、未指定其任何应用，或带有并非本服务器签发的 id_token_hint。服务器无法知道把您送回哪里才安全，因此停在这里而不进行重定向（OpenID Connect RP-Initiated Logout 1.0 §3）。',
    action:
      '您可以在普通退出页面上退出。开发者必须发送 id_token_hint 或 client_id，以及为该客户端注册的退出后重定向 URI 之一（gatehouse clients add --post-logout-redirect-uri），逐字符一致。',
  },
  'passkey-enrolment-failed': {
    title: '通行密钥未添加',
    summary:
      '无法验证新的通行密钥：账户页面已过期或已被使用（每个页面只询问一次，有效 5 分钟）、浏览器报告了其他网站、验证器未进行用户验证，或该通行密钥已注册。没有保存任何内容。',
    action: '请重新加载账户页面，然后再次添加通行密钥。',
  },
  'malformed-request': {
    title: '请求格式错误',
    summary:
      '请求不是有效的 HTTP/1.1：未知方法、CONNECT 请求（服务器不是代理）、不含 HTTP/1.1 的请求行（HTTP/0.9）、格式错误的请求行或头字段、比其 Content-Length 短的请求体，或不是有效百分号编码 UTF-8 的 URL 路径。',
    action: '请发送格式正确的 HTTP/1.1 请求，路径以 UTF-8 百分号编码；再次发送相同的字节仍会失败。',
  },
  'request-header-too-large': {
    title: '请求头字段过大',
    summary:
      '请求行和头字段合计超过了服务器接受的大小（除非运营者设置了 MAX_HEADER_BYTES，否则为 16 KiB），例如 state 很长的授权 URL。',
    action: '请缩短 URL 和头字段；较大的值请放在请求体中发送。',
  },
  'request-timeout': {
    title: '请求超时',
    summary:
      '请求未能及时到达：头部须在 10 秒内、整个请求须在 30 秒内到达（除非运营者设置了 HEADERS_TIMEOUT_MS 或 REQUEST_TIMEOUT_MS）。没有执行任何操作。',
    action: '请重新发送请求，中途不要停顿。',
  },
  'organization-sign-in-method': {
    title: '您的组织要求以其他方式登录',
    summary:
      '您的登录方式不被应用所请求的组织允许(该组织的登录方式:密码、通行密钥或组织的身份提供方)。未授予任何权限。',
    action:
      '请退出登录,然后以详细信息中列出的方式之一重新登录(例如使用您的通行密钥,或通过您公司的身份提供方),或联系该组织的管理员。',
  },
  'invitation-link-invalid': {
    title: '此邀请已失效',
    summary:
      '邀请链接已被使用、超过了运营方允许的期限（如无另行说明为 7 天）、已被撤销、所对应的地址此后已被某个账户使用或所对应的账户已更改地址或被停用、属于其他账户，或并非本服务器发送的链接。每个邀请只能使用一次。未做任何更改。',
    action: '请邀请您的人重新发送邀请。如果您已经接受过邀请，请照常登录。',
  },
  'sign-up-needs-invitation': {
    title: '账户仅通过邀请创建',
    summary:
      '本服务器只为运营方邀请的人创建账户（SIGN_UP=invite）：注册表单是在没有邀请的情况下打开的。未创建任何账户。',
    action: '打开您收到的邀请邮件并点击其中的链接，或向运营方申请邀请。如果您已有账户，请登录。',
  },
  'sign-up-address-not-accepted': {
    title: '此电子邮件地址不能用于注册',
    summary:
      '注册所用的电子邮件地址不是有效地址（一个 @、带点的域名、不含空格、引号、尖括号、逗号或控制字符、最多 254 个字符，RFC 5321 §4.5.3.1.3），或其域名不在运营方允许的范围内（SIGN_UP_DOMAINS）。未创建账户，也未发送邮件。',
    action: '请按您接收邮件的方式输入地址；如果页面列出了允许的域名，请使用其中之一的地址。',
  },
  'sign-up-name-not-accepted': {
    title: '此名称无法使用',
    summary: '注册的名称为空、超过 128 个字符，或包含换行符等控制字符。未创建账户，也未发送邮件。',
    action: '请在一行内输入希望应用程序显示的名称。',
  },
  'too-many-sign-ups': {
    title: '注册次数过多',
    summary:
      '账户申请过于频繁：来自此网络地址（默认每小时 10 次），或使用此电子邮件域名的地址（每小时 50 次）。本次请求未创建账户，也未发送邮件。运营方通过 RATE_LIMIT_SIGN_UP_ADDRESS 和 RATE_LIMIT_SIGN_UP_DOMAIN 设置这些限制。',
    action: '请等待 Retry-After 标头给出的时间（页面上会显示），然后再次注册。',
  },
  'account-deletion-not-confirmed': {
    title: '请输入用户名以删除账户',
    summary:
      '删除账户需要输入其用户名作为确认，并且需要在最近 10 分钟内登录过：输入的内容不是当前登录账户的用户名。未删除任何内容。',
    action: '请完全按照页面显示的内容输入用户名，然后再次删除；或者离开此页面以保留账户。',
  },
  'email-change-address-not-accepted': {
    title: '无法使用此电子邮件地址',
    summary:
      '在账户页面输入的新地址不是有效地址（一个 @、带点的域名、不含空格、引号、尖括号、逗号、换行或其他控制字符、最多 254 个字符，RFC 5321 §4.5.3.1.3）。账户的地址没有更改，也未发送邮件。',
    action: '返回账户页面，按您接收邮件的方式输入新地址。',
  },
};
