"""A Traditional Chinese question read as a Simplified one is (pure): 什麼 as 什么, 為什麼 as
为什么, 怎麼 as 怎么, 這個 as 这个.

The readings' patterns and word lists are written in Simplified characters, and the
segmenter's dictionary is Simplified: 什麼 came out as two unknown characters, read as
content words the evidence had to hold (on a DRCD slice, 20 of 34 covered questions
refused). ``plain`` gives the question's Traditional characters their Simplified form:
every character of the words the readings look for (question words, pronouns,
particles, the words that ask for a summary, a count, a rating, a call) and the
commonest others, so the segmenter cuts the words it knows. One character for one: a
place in the plain text is the same place in the question, and the words read there are
matched against the documents as the question writes them (``written_at``). The segmenter leaves a
Traditional content word in single characters ("線", "程", "池"), and a single character
is no focus: ``joined_runs`` keeps each run of them as the word it spells ("線程池").
"""

from __future__ import annotations

from collections.abc import Collection

# Each pair: a Traditional character and its Simplified form, for the function characters the
# readings look for and the commonest others (a word the segmenter then knows is one term).
# Only characters that Simplified text never uses: a Simplified question reads as it is.
_PAIRS = (
    "麼么 為为 這这 個个 們们 裡里 裏里 誰谁 幾几 時时 樣样 嗎吗 該该 應应 還还 請请 "
    "問问 總总 結结 歸归 納纳 綜综 調调 義义 數数 檔档 識识 庫库 資资 論论 說说 釋释 "
    "舉举 區区 別别 內内 較较 紹绍 驟骤 種种 沒没 會会 長长 遠远 寬宽 歲岁 條条 項项 "
    "層层 對对 錯错 準准 幫帮 遺遗 饋馈 評评 點点 讚赞 贊赞 觸触 發发 徑径 鏈链 樹树 "
    "關关 係系 聲声 塊块 統统 計计 規规 詳详 細细 講讲 處处 異异 稱称 採采 書书 冊册 "
    "節节 體体 辦办 過过 間间 順顺 於于 與与 從从 後后 來来 話话 題题 讓让 實实 現现 "
    "達达 連连 設设 預预 訊讯 開开 裝装 證证 單单 許许 產产 業业 學学 國国 東东 車车 "
    "電电 腦脑 網网 際际 經经 濟济 歷历 華华 語语 詞词 號号 碼码 價价 錢钱 買买 賣卖 "
    "員员 廠厂 場场 縣县 鄉乡 鎮镇 門门 聞闻 陽阳 陰阴 頭头 顏颜 風风 飛飞 馬马 魚鱼 "
    "鳥鸟 黃黄 齊齐 龍龙 傳传 倫伦 儀仪 億亿 優优 兩两 剛刚 創创 劃划 動动 務务 勢势 "
    "勝胜 協协 參参 變变 臺台 灣湾 響响 團团 圖图 圍围 壓压 報报 壞坏 夠够 夢梦 奪夺 "
    "婦妇 寫写 寶宝 將将 專专 尋寻 導导 屬属 島岛 師师 帶带 幣币 廣广 張张 強强 當当 "
    "戰战 戲戏 擊击 擔担 據据 擇择 擴扩 損损 換换 揚扬 斷断 極极 構构 標标 樓楼 樂乐 "
    "機机 權权 歡欢 殺杀 氣气 決决 況况 湯汤 滅灭 漢汉 無无 燈灯 爭争 爾尔 獨独 獲获 "
    "環环 畫画 監监 盡尽 確确 禮礼 穩稳 競竞 筆笔 範范 築筑 簡简 類类 約约 紅红 紀纪 "
    "純纯 紙纸 級级 組组 終终 絕绝 給给 絲丝 綠绿 維维 線线 練练 縮缩 績绩 織织 續续 "
    "習习 聖圣 聯联 聽听 職职 脫脱 興兴 藝艺 藥药 術术 衛卫 補补 製制 複复 視视 覺觉 "
    "覽览 觀观 記记 試试 詩诗 認认 誤误 課课 議议 護护 讀读 負负 財财 貨货 質质 購购 "
    "費费 賽赛 跡迹 軍军 軟软 輕轻 輸输 農农 進进 運运 違违 適适 選选 邊边 醫医 針针 "
    "鐵铁 銀银 錄录 鋼钢 鍵键 鏡镜 閉闭 陣阵 陳陈 險险 隊队 隨随 隱隐 難难 離离 雲云 "
    "靜静 頁页 頂顶 須须 領领 頻频 額额 顯显 飯饭 養养 館馆 驗验 髮发 鮮鲜 麗丽 黨党 "
    "齒齿 態态 憶忆 戶户 擁拥 舊旧 傷伤 儲储 兒儿 則则 剎刹 劑剂 勞劳 勵励 匯汇 厲厉 "
    "啟启 喚唤 嚴严 圓圆 壇坛 壯壮 夾夹 奧奥 孫孙 屆届 廳厅 彈弹 徹彻 憑凭 懷怀 戀恋 "
    "拋抛 捨舍 掃扫 掛挂 搖摇 撥拨 擬拟 攝摄 敗败 敘叙 敵敌 暫暂 曆历 棄弃 榮荣 槍枪 "
    "歐欧 殘残 毀毁 滿满 濾滤 瀏浏 煙烟 熱热 爐炉 牆墙 狀状 猶犹 獎奖 瑪玛 療疗 盤盘 "
    "磚砖 禍祸 穀谷 窮穷 糾纠 紡纺 綁绑 緊紧 編编 緩缓 縱纵 膽胆 臉脸 莊庄 葉叶 蘭兰 "
    "蝦虾 螢萤 衝冲 襲袭 訂订 訓训 託托 訪访 診诊 詢询 誌志 誕诞 誠诚 諮咨 謝谢 譯译 "
    "豐丰 貓猫 貝贝 貢贡 貧贫 貼贴 賀贺 賓宾 賴赖 贏赢 趕赶 趨趋 蹤踪 軌轨 載载 輔辅 "
    "輪轮 轉转 辭辞 遞递 遲迟 郵邮 鄰邻 鈕钮 鎖锁 鐘钟 閃闪 閱阅 闆板 陸陆 雙双 雜杂 "
    "雞鸡 靈灵 韋韦 韓韩 頓顿 頸颈 顧顾 飲饮 餘余 騎骑 驅驱 鬧闹"
)
_FOLD = str.maketrans({pair[0]: pair[1] for pair in _PAIRS.split()})


def plain(text: str) -> str:
    """``text`` with the Traditional form of every function character made Simplified
    (the same length: a place in one is the same place in the other)."""
    return text.translate(_FOLD)


def joined_runs(
    plain_question: str, terms: frozenset[str], apart: Collection[str]
) -> frozenset[str]:
    """``terms`` (of ``plain_question``) with each run of single Han characters standing
    next to one another in the question joined into one term; a character of ``apart``
    (a word any question uses: "最", "多") is never part of a run."""
    singles = {t for t in terms if len(t) == 1 and "\u4e00" <= t <= "\u9fff" and t not in apart}
    runs, run = [], ""
    for char in [*plain_question, ""]:
        if char in singles:
            run += char
            continue
        if len(run) > 1:
            runs.append(run)
        run = ""
    joined = {char for run in runs for char in run}
    return (terms - joined) | frozenset(runs)


def written_at(piece: str, question: str, plain_question: str, start: int = 0) -> tuple[str, int]:
    """``piece``, found in ``plain_question`` from ``start``, as ``question`` writes it
    there (a term of a Traditional question is matched against Traditional documents),
    and where it ends; ``piece`` as it is, and ``start``, when it is not found."""
    at = plain_question.find(piece, start)
    if at < 0:
        return piece, start
    return question[at : at + len(piece)], at + len(piece)
