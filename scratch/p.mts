import { inspect } from '../src/inspect/pipeline.js';
for (const c of [
 JSON.stringify({ to: '+34612345678', text: 'Hola Lucía, confirmada la visita del martes. Un saludo.' }),
 JSON.stringify({ to: '+351912345678', text: 'INC-890: backlog dos webhooks de pagamentos mitigado às 10:05, em monitorização.' }),
 JSON.stringify({ from_account_id: 'acc_joint_01', iban: 'FR7630004000031234567891046', amount: 300, currency: 'EUR', reference: 'Épargne' }),
 JSON.stringify({ from_account_id: 'acc_spaar_02', iban: 'NL91ABNA0417164300', amount: 1000, currency: 'EUR', reference: 'Terugboeking spaargeld' }),
]) { const v = inspect({ content: c, kind: 'tool_call' } as any); console.log(v.action, JSON.stringify(v.flags.map((f: any) => [f.type, f.score, f.detail])), JSON.stringify(v.secrets.map((s:any)=>[s.type, c.slice(s.start,s.end)]))); }
