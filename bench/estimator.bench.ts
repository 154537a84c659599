/**
 * Token estimator error vs a real tokenizer (`gpt-tokenizer`, o200k_base) on the corpus.
 * Samples: every text/thinking block (prose), tool input (JSON) and tool result (classified as
 * JSON, code or prose) of the Anthropic sessions, plus a fixed multilingual set (not in the
 * corpus, which is almost all English). Prints, per category: samples, aggregate error
 * (Σest − Σreal)/Σreal and median per-sample |error| over samples of ≥ 20 tokens, for the
 * estimator and for the plain bytes/4 rule. Run by `npm run bench`, or alone with
 * `node --import tsx bench/estimator.bench.ts`.
 */
import { countTokens } from "gpt-tokenizer";
import { estimateTokens } from "../src/core/tokens/estimate";
import { sessions } from "../test/support/corpus";

/** Same meaning in each language (written for this bench). */
export const MULTILINGUAL: Record<string, string> = {
  fr: "Le gestionnaire de sessions conserve l'état de chaque conversation, y compris le nombre de tours, les minuteries d'inactivité et le registre des compactages. Quand le contexte devient trop long, il retire les anciens résultats d'outils.",
  de: "Die Sitzungsverwaltung speichert den Zustand jeder Unterhaltung, einschließlich der Anzahl der Runden, der Leerlauf-Timer und des Verdichtungsprotokolls. Wenn der Kontext zu lang wird, entfernt sie alte Werkzeugergebnisse.",
  es: "El gestor de sesiones guarda el estado de cada conversación, incluido el número de turnos, los temporizadores de inactividad y el registro de compactación. Cuando el contexto es demasiado largo, elimina resultados antiguos de herramientas.",
  pt: "O gestor de sessões guarda o estado de cada conversa, incluindo o número de turnos, os temporizadores de inatividade e o registo de compactação. Quando o contexto fica longo demais, remove resultados antigos de ferramentas.",
  ru: "Менеджер сеансов хранит состояние каждого разговора, включая количество ходов, таймеры простоя и журнал сжатия. Когда контекст становится слишком длинным, он удаляет старые результаты инструментов.",
  ar: "يحتفظ مدير الجلسات بحالة كل محادثة، بما في ذلك عدد الأدوار ومؤقتات الخمول وسجل الضغط. عندما يصبح السياق طويلاً جداً، يزيل نتائج الأدوات القديمة.",
  hi: "सत्र प्रबंधक हर बातचीत की स्थिति रखता है, जिसमें बारी की संख्या, निष्क्रियता टाइमर और संपीड़न लेखा शामिल हैं। जब संदर्भ बहुत लंबा हो जाता है, तो यह पुराने उपकरण परिणाम हटा देता है।",
  zh: "会话管理器保存每个对话的状态,包括轮次数量、空闲计时器和压缩记录。当上下文变得太长时,它会删除旧的工具结果,但从不修改用户和助手的文字。",
  ja: "セッションマネージャーは、ターン数、アイドルタイマー、圧縮台帳を含む各会話の状態を保持します。コンテキストが長くなりすぎると、古いツールの結果を削除しますが、ユーザーの文章は決して変更しません。",
  ko: "세션 관리자는 턴 수, 유휴 타이머, 압축 기록을 포함하여 각 대화의 상태를 보관합니다. 컨텍스트가 너무 길어지면 오래된 도구 결과를 제거하지만 사용자의 글은 절대 바꾸지 않습니다.",
  "emoji+symbols": "✅ done 🔍 search ⚠️ warning 📁 folder ❌ failed 🚀 deploy ─── │ ├── └── → ← ↑ ↓ ✓ • … 🎉🎉🎉",
};

type Block = { type: string; text?: string; thinking?: string; input?: unknown; content?: unknown };

function classify(t: string): "json" | "code" | "prose" {
  const s = t.trimStart();
  if (s.startsWith("{") || s.startsWith("[")) {
    try { JSON.parse(s); return "json"; } catch { /* not JSON */ }
  }
  // Claude Code file views ("   12→") or brace/semicolon-dense text.
  if (/^\s*\d+→/m.test(t) || (t.match(/[{};()=]/g) ?? []).length > t.length / 25) return "code";
  return "prose";
}

/** Category → sample texts. */
export function estimatorSamples(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (cat: string, t: string) => { if (t.length > 0) (out.get(cat) ?? out.set(cat, []).get(cat)!).push(t); };
  for (const s of sessions("anthropic")) {
    for (const m of s.messages) {
      if (typeof m.content === "string") { add("prose", m.content); continue; }
      for (const b of m.content as Block[]) {
        if (b.type === "text") add("prose", b.text!);
        else if (b.type === "thinking") add("prose", b.thinking!);
        else if (b.type === "tool_use") add("json", JSON.stringify(b.input));
        else if (b.type === "tool_result") {
          const t = typeof b.content === "string" ? b.content : ((b.content as Block[] | undefined) ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
          add(classify(t), t);
        }
      }
    }
  }
  for (const [lang, t] of Object.entries(MULTILINGUAL)) add(`non-English: ${lang}`, t);
  return out;
}

const bytesOver4 = (t: string) => Math.ceil(new TextEncoder().encode(t).length / 4);

/** Prints the error table. */
export function runEstimatorBench(): void {
  console.log("token estimator vs gpt-tokenizer o200k_base (aggregate error | median per-sample |error|, samples ≥ 20 tokens)");
  console.log("category                  samples    estimator            bytes/4");
  for (const [cat, texts] of estimatorSamples()) {
    let real = 0;
    let est = 0;
    let b4 = 0;
    const e1: number[] = [];
    const e2: number[] = [];
    for (const t of texts) {
      const r = countTokens(t);
      const a = estimateTokens(t);
      const b = bytesOver4(t);
      real += r; est += a; b4 += b;
      if (r >= 20) { e1.push(Math.abs(a - r) / r); e2.push(Math.abs(b - r) / r); }
    }
    const med = (xs: number[]) => (xs.length ? `${(100 * xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!).toFixed(1)}%` : "-");
    const agg = (x: number) => `${x >= real ? "+" : ""}${((100 * (x - real)) / real).toFixed(1)}%`;
    console.log(`${cat.padEnd(26)}${String(texts.length).padStart(7)}    ${agg(est).padStart(7)} | ${med(e1).padStart(6)}     ${agg(b4).padStart(7)} | ${med(e2).padStart(6)}`);
  }
  console.log("media: not tokenised; MEDIA_TOKENS = 1,600 flat per image/document (exact at ~1.15 MP, +2,900% for a 200×200 image; see estimate.ts)");
}

if (import.meta.url === `file://${process.argv[1]}`) runEstimatorBench();
