// exercise.js - the page's exercise panel: the controls that answer a
// lesson's exercises (predict: the values, counterexample: an input,
// redundant: comparator numbers, depth: a number, merger: yes / no,
// complete: the network built in edit mode), the hint, the score and the
// line a student hands in, which ends with the page's address carrying the
// answers (a teacher opens it and sees each answer graded). Grading, the question and the explanation are
// the engine's (src/web/engine_exercise.c over src/session/exercise.c): the
// caption the scene draws shows them; this only collects answers.
// page.js calls snExerciseAttach once and the update it returns after
// every frame with window.snState.
'use strict';
function snExerciseAttach(api) {
  const {E, redraw, showError} = api;
  const el = (tag, props, text) => {
    const e = Object.assign(document.createElement(tag), props || {});
    if (props && props.testid) e.dataset.testid = props.testid;
    if (text) e.textContent = text;
    return e;
  };
  const box = el('fieldset', {id: 'exercise', testid: 'exercise'});
  box.append(el('legend', null, 'Exercise'));
  const question = el('span', {id: 'exercise-question', testid: 'exercise-question'});
  question.setAttribute('aria-live', 'polite');
  const answer = el('input', {id: 'exercise-answer', testid: 'exercise-answer', size: 18});
  answer.setAttribute('aria-label', 'your answer');
  const submit = el('button', {id: 'exercise-submit', testid: 'exercise-submit'}, 'Answer');
  const yes = el('button', {id: 'exercise-yes', testid: 'exercise-yes'}, 'Yes');
  const no = el('button', {id: 'exercise-no', testid: 'exercise-no'}, 'No');
  const mine = el('button', {id: 'exercise-check', testid: 'exercise-check',
    title: 'grade the network as edited (Edit adds comparators)'}, 'Check my network');
  const shown = el('button', {id: 'exercise-use-input', testid: 'exercise-use-input',
    title: 'answer with the input set under Input'}, 'Use the input shown');
  const hint = el('button', {id: 'exercise-hint', testid: 'exercise-hint'}, 'Hint');
  const result = el('span', {id: 'exercise-result', testid: 'exercise-result'});
  result.setAttribute('role', 'status');
  const score = el('span', {id: 'exercise-score', testid: 'exercise-score'});
  const handin = el('input', {id: 'exercise-handin', testid: 'exercise-handin', readOnly: true, size: 28});
  handin.setAttribute('aria-label', 'your result to hand in');
  const copy = el('button', {id: 'exercise-copy', testid: 'exercise-copy'}, 'Copy result');
  box.append(question, answer, submit, yes, no, mine, shown, hint, result, score, handin, copy);
  box.style.display = 'none';
  result.style.fontWeight = 'bold';
  (document.getElementById('controls') || document.body).append(box);

  function send(text) {
    const rc = snWithString(E, text, (p, n) => E.snw_exercise_answer(p, n));
    showError(rc >= 2 ? snString(E, E.snw_error()) : '');
    redraw();
  }
  submit.onclick = () => send(answer.value.trim());
  answer.onkeydown = (e) => { if (e.key === 'Enter') submit.onclick(); };
  yes.onclick = () => send('yes');
  no.onclick = () => send('no');
  mine.onclick = () => send('');
  shown.onclick = () => send(window.snState.exercise.input);
  hint.onclick = () => { if (E.snw_exercise_hint() >= 2) showError(snString(E, E.snw_error())); redraw(); };
  copy.onclick = () => {
    handin.select();
    if (navigator.clipboard) navigator.clipboard.writeText(handin.value).catch(() => document.execCommand('copy'));
    else document.execCommand('copy');
  };

  const narrow = window.matchMedia('(max-width: 600px)');
  let shownKey = '';
  return function update(s) {
    const x = s.exercise;
    box.style.display = x ? '' : 'none';
    if (!x) { shownKey = ''; return; }
    const on = x.kind !== null, key = on ? [s.lesson && s.lesson.step, x.kind, x.seed].join(':') : '';
    answer.style.display = submit.style.display =
      on && x.kind !== 'merger' && x.kind !== 'complete' ? '' : 'none';
    hint.style.display = on ? '' : 'none';
    yes.style.display = no.style.display = x.kind === 'merger' ? '' : 'none';
    mine.style.display = x.kind === 'complete' ? '' : 'none';
    shown.style.display = x.kind === 'counterexample' ? '' : 'none';
    question.textContent = on ? x.question : '';
    // a phone: the caption over the picture says it already; kept for a screen reader
    Object.assign(question.style, narrow.matches ? {position: 'absolute', width: '1px', height: '1px',
      overflow: 'hidden', clip: 'rect(0 0 0 0)'} : {position: '', width: '', height: '', overflow: '', clip: ''});
    if (key !== shownKey) { // a new exercise: predict starts from the values shown
      shownKey = key;
      answer.value = x.kind === 'predict' ? s.values.join(',') : '';
      answer.placeholder = {predict: 'values, top first', counterexample: '3,1,2 or 0110',
        redundant: 'e.g. 2,5 (- for none)', depth: 'layers'}[x.kind] || '';
    }
    result.textContent = !on || !x.answered ? '' : x.correct ? 'right' : 'wrong';
    result.style.color = x.correct ? '#1b6e20' : '#b00020';
    score.textContent = 'score ' + x.right + '/' + x.asked;
    // the engine's line ends with the link's part after '#': the page's own address before it
    const at = x.handin.lastIndexOf(' link #');
    handin.value = at < 0 ? x.handin : x.handin.slice(0, at + 6) + location.href.split('#')[0] + x.handin.slice(at + 6);
  };
}
